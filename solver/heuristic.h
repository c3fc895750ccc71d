// heuristic.h: an estimate at once, and a move when there is no time to prove one (docs/design.md
// §7, "Estimates").
//
// Iterative deepening alpha-beta over what the stores gain on the way (a board's unknown rest
// counts 0), with a table of its own (bounds with their depth, and the best move), the table's
// move and then extra turns and captures tried first, null windows after the first move and an
// aspiration window at the root. Its leaves are exact where they can be: finished games, and the
// database's boards (HeuristicOptions::leaves). A subtree that meets no ply limit is solved, and
// its bounds are kept as proven; an iteration whose tree is solved gives the board's V. Used
// wherever an answer is wanted before a proof: `kalah play`, `kalah kgp`, the board's estimates,
// the progress of a search, and as the pie rule's ordering of openings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "base/stop.h"
#include "game/rules.h"
#include "game/value.h"
#include "game/leaf_values.h"

namespace kalah {

struct HeuristicOptions {
  const LeafValues* leaves = nullptr;  // exact values at its boards (Board only)
  const StopFlag* stop = nullptr;      // raised: the deepest finished iteration is returned
  int max_depth = 200;                 // plies
  size_t table_bytes = size_t{16} << 20;
  // Value every root move (an analysis: each move's estimate), not only the best one.
  bool every_move = false;
  // Proven bounds on root moves' values (V, stores left out; pit 0-based), e.g. from a value
  // search that ran out of time: an estimate is kept within them, so a move proven worse than
  // another is never chosen.
  std::vector<std::pair<int, Bounds>> proven = {};
};

// A line of play: turns of 0-based pits, a side's extra turns in its turn (as Analysis's
// best_line).
using Line = std::vector<std::vector<int>>;

struct MoveEstimate {
  int pit = 0;    // 0-based
  int value = 0;  // the move's value at the iteration's depth (V, stores left out)
  bool exact = false;
  Line line;  // the move, then the moves the search expects (its principal variation)
};

struct Estimate {
  int pit = -1;        // the best move, 0-based; -1 only when the game is over
  int depth = 0;       // plies of the deepest finished iteration
  int value = 0;       // the board's value at that depth, stores left out, as V is
  bool exact = false;  // the iteration's tree was solved: value is the board's V
  uint64_t nodes = 0;
  std::vector<MoveEstimate> moves;  // every_move: each legal move, in pit order
  Line line;                        // the best move's line, as its MoveEstimate's
};

// Called after each finished iteration.
using EstimateProgress = std::function<void(const Estimate&)>;

// Returns after the first iteration even if the stop is already raised, so there is always a
// move.
Estimate heuristic_search(const Rules& rules, const Board& b, const HeuristicOptions& options,
                          const EstimateProgress& progress = {});
// The same for a board of any size (rules.pits is taken from the board; no database).
struct AnyBoard;
Estimate heuristic_search(const Rules& rules, const AnyBoard& b, const HeuristicOptions& options,
                          const EstimateProgress& progress = {});

}  // namespace kalah
