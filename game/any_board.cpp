// any_board.cpp: sowing without play()'s word tricks: whole laps at once, then seed by seed.
#include "game/any_board.h"

#include <algorithm>

namespace kalah {

AnyMove play(const Rules& rules, const AnyBoard& b, int pit) {
  const int m = b.m();
  AnyMove r;
  std::vector<int> pits = b.pits;
  const int seeds = pits[pit];
  pits[pit] = 0;
  // Places: 0..m-1 the mover's pits, m the store, m+1..2m the opponent's pits. A lap drops a seed
  // in every place, the emptied pit included: a move costs O(m) however many seeds it sows.
  const int cycle = 2 * m + 1, laps = seeds / cycle;
  if (laps > 0) {
    for (int& v : pits) v += laps;
    r.gain += laps;
  }
  int place = pit;  // after whole laps alone, the last seed fell into the pit it started from
  for (int k = 0; k < seeds % cycle; ++k) {
    place = (place + 1) % cycle;
    if (place == m)
      ++r.gain;
    else
      ++pits[place < m ? place : place - 1];
  }
  if (place == m) {
    r.extra_turn = true;
    r.board.pits = std::move(pits);
    return r;
  }
  if (place < m && pits[place] == 1) {
    const int opposite = 2 * m - 1 - place;
    if (pits[opposite] > 0 || rules.capture == Capture::kEmpty) {
      r.gain += 1 + pits[opposite];
      pits[place] = pits[opposite] = 0;
    }
  }
  std::rotate(pits.begin(), pits.begin() + m, pits.end());  // the opponent moves next
  r.board.pits = std::move(pits);
  return r;
}

}  // namespace kalah
