// heuristic.h: a move when there is no time to prove one (docs/design.md §7).
//
// Alpha-beta to a fixed number of plies over what the stores gain on the way (a board's unknown
// rest counts 0), deepened one ply at a time, each iteration trying the last one's choice first,
// until `stop` is raised or an iteration reaches every game end (then the estimate is exact).
// Used by `kalah play` and `kalah kgp` for positions a search cannot solve in the time given;
// what it returns is labelled an estimate wherever it is shown.
#pragma once

#include <cstdint>
#include <functional>

#include "solver/rules.h"
#include "solver/stop.h"

namespace kalah {

struct HeuristicMove {
  int pit = -1;        // 0-based; -1 only when the game is over
  int depth = 0;       // plies of the deepest finished iteration
  int estimate = 0;    // the move's value at that depth, stores left out, as V is
  bool exact = false;  // no ply limit was met: estimate is the board's V
  uint64_t nodes = 0;
};

// Called after each finished iteration.
using HeuristicProgress = std::function<void(const HeuristicMove&)>;

// Returns after the first iteration even if `stop` is already raised, so there is always a move.
HeuristicMove heuristic_move(const Rules& rules, const Board& b, const StopFlag* stop,
                             int max_depth = 200, const HeuristicProgress& progress = {});
// The same for a board of any size (rules.pits is taken from the board).
struct AnyBoard;
HeuristicMove heuristic_move(const Rules& rules, const AnyBoard& b, const StopFlag* stop,
                             int max_depth = 200, const HeuristicProgress& progress = {});

}  // namespace kalah
