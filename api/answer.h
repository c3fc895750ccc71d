// answer.h: kalah's JSON answers, one shape for the command line, the library and the Python
// module (fields documented in docs/json.md). Every object starts with kalah_version and the
// command that made it; every answer about a position carries the rules and both forms of the
// position.
#pragma once

#include <cstdint>
#include <string>

#include "api/json.h"
#include "solver/analysis.h"
#include "solver/openings.h"

namespace kalah {

// An analysed position and where its values came from.
struct Report {
  Rules rules;
  Position position;
  Analysis analysis;
  std::string source;  // "search" or "database"
  uint64_t nodes = 0;
  uint64_t probes = 0;  // database probes
  uint64_t earlier_nodes = 0;  // searched by the runs a checkpoint resumed from
  double seconds = 0;
};

// "win", "draw" or "loss" for a margin.
const char* result_word(int margin);

// {"kalah_version", "command"}: how every answer starts.
JsonObject answer_json(const std::string& command);
// {"capture", "end", "remainder"}.
JsonObject rules_json(const Rules& rules);
// answer_json plus pits and rules: the start of an answer about a database or a build.
JsonObject variant_json(const std::string& command, const Rules& rules);
// answer_json plus position, absolute, pits, rules, to_move.
JsonObject position_json(const std::string& command, const Rules& rules, const Position& p);
// The full analysis: position_json plus value, result, board_value, finished, moves (each with
// the position it leads to), best_line, source, nodes, probes, seconds, and earlier_nodes for a
// search resumed from a checkpoint.
JsonObject analysis_json(const std::string& command, const Report& r);
// The moves of a position, without searching: position_json plus finished, and the final value
// and result when it is finished, else moves (each pit with extra_turn and the position it
// leads to, as the analysis gives them).
JsonObject moves_json(const std::string& command, const Rules& rules, const Position& p);
// The value alone (solve --value-only): position_json plus value, result, value_only, nodes,
// probes, seconds, and earlier_nodes when nonzero (a search resumed from a checkpoint).
JsonObject value_json(const std::string& command, const Rules& rules, const Position& p, int value,
                      uint64_t nodes, uint64_t probes, double seconds, uint64_t earlier_nodes = 0);
// Adds earlier_nodes to an answer about a search resumed from a checkpoint (none when 0).
JsonObject& add_earlier_nodes(JsonObject& answer, uint64_t earlier_nodes);
// A search stopped before its end (Ctrl-C, a budget): position_json plus interrupted, lower,
// upper (the bounds proven on the final margin for the mover), source "bounds", nodes, seconds.
JsonObject interrupted_json(const std::string& command, const Rules& rules, const Position& p,
                            int lower, int upper, uint64_t nodes, double seconds);
// The move kalah plays (api/move_choice.h): position_json plus pit (1..m), proven, value (the
// final margin for the mover: proven, or the heuristic's estimate), result when proven, source
// ("database", "search" or "heuristic"), depth (heuristic), the position it leads to, seconds.
struct MoveChoice;
JsonObject move_json(const std::string& command, const Rules& rules, const Position& p,
                     const MoveChoice& choice, double seconds);
// What a running full analysis has proven (solver/parallel_search.h): position_json plus running,
// and when anything is proven, lower, upper, done, total, moves (each pit 1..m, lower, upper).
struct AnalysisProgress;
JsonObject progress_json(const std::string& command, const Rules& rules, const Position& p,
                         const AnalysisProgress* so_far);
// The pie rule: position_json plus pie, value, result, best_opening, openings.
JsonObject pie_json(const std::string& command, const Rules& rules, const Position& p,
                    const PieAnalysis& pie);

}  // namespace kalah
