// value.h: what a value is, and a move's value from its child's (docs/design.md §3).
//
// V(b) is what the mover of board b will still add to their store minus what the opponent will,
// under perfect play. A move gains `gain` seeds, then either the same player moves again (an extra
// turn: the child's V counts for the mover) or the opponent does (it counts against). Every place
// that turns a child's value, bounds or window into the mover's goes through these functions.
#pragma once

#include "game/rules.h"

namespace kalah {

// Proven bounds on a value: lower <= V <= upper.
struct Bounds {
  int lower = 0, upper = 0;

  bool exact() const { return lower == upper; }
  bool operator==(const Bounds&) const = default;
};

// What any position's final margin is known to lie in before a search: its stores' difference
// plus or minus the seeds on its pits (-s <= V <= s).
inline Bounds margin_bounds(const Position& p) {
  const int stores = p.mover_store - p.opponent_store, s = seeds(p.board);
  return {stores - s, stores + s};
}

// The move's value to its mover given V of the board it leads to.
inline int move_value(bool extra_turn, int gain, int child_value) {
  return extra_turn ? gain + child_value : gain - child_value;
}
inline int move_value(const MoveResult& r, int child_value) {
  return move_value(r.extra_turn, r.gain, child_value);
}

// Bounds on the child's V as bounds on the move's value: a passed turn swaps them.
inline Bounds move_bounds(const MoveResult& r, Bounds child) {
  return r.extra_turn ? Bounds{r.gain + child.lower, r.gain + child.upper}
                      : Bounds{r.gain - child.upper, r.gain - child.lower};
}

// A search window (alpha, beta) on the move's value as a window on the child's V.
struct Window {
  int alpha, beta;
};
inline Window child_window(const MoveResult& r, int alpha, int beta) {
  return r.extra_turn ? Window{alpha - r.gain, beta - r.gain}
                      : Window{r.gain - beta, r.gain - alpha};
}

}  // namespace kalah
