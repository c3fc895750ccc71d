// openings.h: complete first turns, and the pie rule over them (docs/design.md §1).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "game/rules.h"
#include "game/value.h"
#include "solver/analysis.h"

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
  int value = 0;         // w: final margin for the first player without a swap, when exact
  Bounds bounds;         // proven on w (both w when exact)
  bool swapped = false;  // w > 0 proven
  bool exact() const { return bounds.exact(); }
};
struct PieAnalysis {
  int value = 0;  // the first player's margin under the pie rule: max over openings of -|w|
  int best = 0;   // index of the first opening reaching it (pie_value: of one reaching it)
  bool value_only = false;  // pie_value's: only the best opening is sure to be exact
  std::vector<PieOpening> openings;
};
// Throws std::invalid_argument when the game is already over (there is no opening).
PieAnalysis pie_rule(const Rules& rules, const Position& p, const BoardValue& value);

// The pie rule's value and an opening reaching it, for null-window tests rather than every
// opening's exact value (docs/design.md §1). Rounds look for an opening with |w| <= r, r = 0, 1,
// 2, 4, ..., each opening one test at the window's edge; the first found inside is valued within
// it, and the rest asked only whether they come nearer a draw (|w| below the best). Openings in
// the order of a shallow estimate, nearest a draw first. `tests(after)` runs "is the final
// margin of after's mover at least beta?" tests on a table kept between them (parallel_search.h's
// RootTests); it may throw to stop. The value equals pie_rule's; `best` is the opening found
// first among those reaching it (pie_rule's is the first listed), the only one sure to be exact;
// the others get the bounds their tests proved.
struct MarginTests {
  virtual ~MarginTests() = default;
  // The bounds proven on the final margin: at least one of them decides "at least beta?".
  virtual Bounds test(int beta) = 0;
};
using MarginTestsFor = std::function<std::unique_ptr<MarginTests>(const Position& after)>;
PieAnalysis pie_value(const Rules& rules, const Position& p, const MarginTestsFor& tests);

}  // namespace kalah
