// move_choice.h: the move kalah plays (query/query.h's Ask::kMove: `kalah play`, `kalah kgp`, the
// board's computer player): perfect where its value is proven in the time given, from the
// database or by the value search, otherwise the heuristic search's choice (solver/heuristic.h),
// labelled as an estimate.
#pragma once

#include <chrono>
#include <functional>
#include <optional>

#include "db/database.h"
#include "game/any_board.h"
#include "parallel/search_run.h"
#include "query/source.h"

namespace kalah {

struct MoveChoice {
  int pit = -1;         // 0-based; -1 when the game is over
  bool proven = false;  // the move is worth `value`, the position's value
  int value = 0;        // proven: the final margin for the mover; else the heuristic's estimate
  Source source = Source::kHeuristic;  // kDatabase, kSearch or kHeuristic
  int depth = 0;                       // heuristic: plies looked ahead
  // A weaker level's move: the value (or estimate) of the best one.
  std::optional<int> best = std::nullopt;
};

// Called as the choice improves: the heuristic's move, then the proven one.
using MoveImproved = std::function<void(const MoveChoice&)>;
using MoveClock = std::chrono::steady_clock;

// For run() (query/query.h): a tenth of the time to `deadline` goes to the heuristic search (a
// move at once), the rest to the value search over `setup` (its leaves are db's); the setup's
// stop ends both early (the best choice so far is returned).
MoveChoice choose_move(const SearchSetup& setup, const Database* db, const Position& p,
                       MoveClock::time_point deadline, const MoveImproved& improved = {});

// A board beyond Board's limits (game/any_board.h; KGP servers send up to 11 pits a row):
// the heuristic search alone until `deadline` or `stop` (exact only if it reaches every game
// end). `stores`: the mover's store minus the opponent's.
MoveChoice choose_move(const Rules& rules, const AnyBoard& b, int stores,
                       MoveClock::time_point deadline, const StopFlag* stop = nullptr,
                       const MoveImproved& improved = {});

}  // namespace kalah
