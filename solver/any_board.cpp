// any_board.cpp: sowing seed by seed, without play()'s word tricks.
#include "solver/any_board.h"

#include <algorithm>

namespace kalah {

AnyMove play(const Rules& rules, const AnyBoard& b, int pit) {
  const int m = b.m();
  AnyMove r;
  std::vector<int> pits = b.pits;
  int seeds = pits[pit];
  pits[pit] = 0;
  // Places: 0..m-1 the mover's pits, m the store, m+1..2m the opponent's pits.
  int place = pit;
  while (seeds > 0) {
    place = (place + 1) % (2 * m + 1);
    if (place == m)
      ++r.gain;
    else
      ++pits[place < m ? place : place - 1];
    --seeds;
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
