// move_choice.h: the move kalah plays (`kalah play`, `kalah kgp`): perfect where its value is
// proven in the time given, from the database or by the value search, otherwise the heuristic
// search's choice (solver/heuristic.h), labelled as an estimate.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "db/database.h"
#include "solver/any_board.h"

namespace kalah {

struct MoveChoice {
  int pit = -1;         // 0-based; -1 when the game is over
  bool proven = false;  // the move is worth `value`, the position's value
  int value = 0;        // proven: the final margin for the mover; else the heuristic's estimate
  std::string source;   // "database", "search" or "heuristic"
  int depth = 0;        // heuristic: plies looked ahead
};

// Called as the choice improves: the heuristic's move, then the proven one.
using MoveImproved = std::function<void(const MoveChoice&)>;

// A tenth of `seconds` goes to the heuristic search (a move at once), the rest to the value
// search; `stop` ends both early (the best choice so far is returned). `db` may be null.
MoveChoice choose_move(const Rules& rules, const Position& p, const Database* db, double seconds,
                       const std::atomic<bool>* stop = nullptr, const MoveImproved& improved = {});

// A board beyond Board's limits (solver/any_board.h): the heuristic search alone, for `seconds`
// (exact only if it reaches every game end). `stores`: the mover's store minus the opponent's.
MoveChoice choose_move(const Rules& rules, const AnyBoard& b, int stores, double seconds,
                       const std::atomic<bool>* stop = nullptr, const MoveImproved& improved = {});

}  // namespace kalah
