// mtdf.h: the MTD(f) driver shared by the sequential and the parallel search (docs/design.md §7).
//
// MTD(f) finds an exact value by null-window tests "is V at least beta?", each beta next to the
// latest result, until the proven bounds meet. How a test is run (one alpha-beta search, or the
// root moves on all cores) is the caller's; the sequence of tests is decided here alone.
#pragma once

#include <algorithm>

#include "game/value.h"

namespace kalah {

// Narrows `bounds` to the exact value, starting the tests at `guess`. test(beta) returns the
// bounds its test proved, at least one of which decides it: lower >= beta or upper < beta.
// `bounds` is updated after every test, so an exception out of a test leaves what was proven.
// after_test(bounds) is called after each test; returning false stops the loop early.
template <class Test, class AfterTest>
void mtdf(Bounds& bounds, int guess, Test&& test, AfterTest&& after_test) {
  while (bounds.lower < bounds.upper) {
    const int beta = guess == bounds.lower ? guess + 1 : guess;
    const Bounds proven = test(beta);
    bounds.lower = std::max(bounds.lower, proven.lower);
    bounds.upper = std::min(bounds.upper, proven.upper);
    if (!after_test(bounds)) return;
    guess = proven.lower >= beta ? bounds.lower : bounds.upper;
  }
}

}  // namespace kalah
