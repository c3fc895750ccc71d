// openings.h: complete first turns, and the pie rule over them (docs/design.md §1).
#pragma once

#include <vector>

#include "solver/analysis.h"
#include "solver/rules.h"

namespace kalah {

// The mover's complete first turns from a position: every pit sequence whose moves but the last
// earn an extra turn (or the game ends), with the position each leads to.
struct Opening {
  std::vector<int> turn;
  Position after;
};
std::vector<Opening> openings(const Rules& rules, const Position& p);

// The pie rule: after the mover's first complete turn the opponent may swap sides, taking over
// that position and score. An opening worth w to the first player (final margin with best play,
// no swap) is then worth min(w, -w) to them: the opponent swaps exactly when w > 0.
struct PieOpening {
  std::vector<int> turn;
  int value = 0;  // w: final margin for the first player without a swap
  bool swapped = false;
};
struct PieAnalysis {
  int value = 0;  // the first player's margin under the pie rule: max over openings of -|w|
  int best = 0;   // index of the first opening reaching it
  std::vector<PieOpening> openings;
};
// Throws std::invalid_argument when the game is already over (there is no opening).
PieAnalysis pie_rule(const Rules& rules, const Position& p, const BoardValue& value);

}  // namespace kalah
