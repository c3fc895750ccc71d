// any_board.h: boards of any size, for the heuristic search alone.
//
// Board holds at most kMaxPits pits a row and kMaxBoardSeeds seeds, which the search, the tables
// and the databases rely on; a KGP server may send any board (its own random ones have up to 11
// pits a row). AnyBoard is the plain form of the same rules (docs/design.md §1), pits indexed
// side-relative as in Board, with rules.pits set to its m; tests hold it to play() on every board
// both can hold.
#pragma once

#include <utility>
#include <vector>

#include "game/rules.h"

namespace kalah {

struct AnyBoard {
  std::vector<int> pits;  // 2m: the mover's row, then the opponent's, each in sowing order

  int m() const { return static_cast<int>(pits.size() / 2); }
};

struct AnyMove {
  AnyBoard board;  // seen from whoever moves next, as MoveResult's
  int gain = 0;
  bool extra_turn = false;
};

AnyMove play(const Rules& rules, const AnyBoard& b, int pit);

// The seeds in the mover's row and in the opponent's.
inline std::pair<int, int> row_seeds(const AnyBoard& b) {
  int mover = 0, opponent = 0;
  for (int i = 0; i < b.m(); ++i) {
    mover += b.pits[i];
    opponent += b.pits[b.m() + i];
  }
  return {mover, opponent};
}

inline bool is_terminal(const Rules& rules, const AnyBoard& b) {
  const auto [mover, opponent] = row_seeds(b);
  return is_terminal(rules, mover, opponent);
}

inline int terminal_value(const Rules& rules, const AnyBoard& b) {
  const auto [mover, opponent] = row_seeds(b);
  return terminal_value(rules, mover, opponent);
}

}  // namespace kalah
