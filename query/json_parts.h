// json_parts.h: the parts of kalah's JSON answers, one shape for the command line, the library and
// the Python module (fields documented in docs/json.md; query/query.h's outcome_json puts them
// together). Every object starts with kalah_version and the command that made it; every answer
// about a position carries the rules and both forms of the position.
#pragma once

#include <string>
#include <vector>

#include "base/json.h"
#include "parallel/search_run.h"
#include "solver/analysis.h"
#include "solver/heuristic.h"

namespace kalah {

// "win", "draw" or "loss" for a margin.
const char* result_word(int margin);

// An analysis's move as every answer shows it (the JSON and the library's Analysis alike): pit
// 1..m, its value and result, the whole turn, the position it leads to in both notations.
struct MoveShown {
  int pit = 0, value = 0;
  std::string result, turn, position, absolute;
};
std::vector<MoveShown> moves_shown(const Rules& rules, const Position& p, const Analysis& a);

// {"kalah_version", "command"}: how every answer starts.
JsonObject kalah_json(const std::string& command);
// {"capture", "end", "remainder"}.
JsonObject rules_json(const Rules& rules);
// kalah_json plus pits and rules: the start of an answer about a database or a build.
JsonObject variant_json(const std::string& command, const Rules& rules);
// kalah_json plus position, absolute, pits, rules, to_move.
JsonObject position_json(const std::string& command, const Rules& rules, const Position& p);
// The choices of each rule, {"capture": ["standard", "empty"], "end": [...], "remainder": [...]}:
// what a client offers (the board reads them from /api/v1/info).
JsonObject rule_choices_json();
// A finished game's position once the seeds left on the pits are swept by the remainder rule
// (each row to its owner's store, or out of the game), absolute: what a board shows at the end.
std::string final_absolute(const Rules& rules, const Position& p);
// The moves of a position, without searching: position_json plus finished, and the final value,
// result and final_absolute when it is finished, else moves (each pit with extra_turn and the
// position it leads to, as the analysis gives them).
JsonObject moves_json(const std::string& command, const Rules& rules, const Position& p);
// What a running search has proven (parallel/search_run.h): position_json plus running, and when
// anything is proven, lower, upper, done, total, moves (each pit 1..m, lower, upper); with an
// estimate, estimate_json's.
JsonObject progress_json(const std::string& command, const Rules& rules, const Position& p,
                         const SearchProgress* so_far, const Estimate* estimate = nullptr);
// An estimate in final margins (solver/heuristic.h) of a position `mover` is to play: {"value",
// "depth", "exact", "best" (its best pit, 1..m), "line", "moves" (each pit 1..m with its value
// and line; a full analysis's estimate only)}; lines as game records write them, "S:3-6".
JsonObject estimate_json(const Estimate& e, Side mover);

}  // namespace kalah
