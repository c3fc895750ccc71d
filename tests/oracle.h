// oracle.h: a plain exhaustive solver for the tests, written apart from solver/ on purpose.
//
// It plays the literal game on absolute bins (South pits, South store, North pits, North store),
// sowing seed by seed, to the very end, and memoises whole states (stores included). Slow and
// obviously right: the reference that rules.cpp, search.cpp and later the databases are held to.
#pragma once

#include <map>
#include <vector>

#include "game/rules.h"

namespace kalah::test {

class Oracle {
 public:
  explicit Oracle(const Rules& rules) : rules_(rules) {}
  // V of a side-relative board: the final margin for its mover starting from empty stores.
  int value(const Board& b);

 private:
  int play_out(const std::vector<int>& bins, int player);  // South store minus North store

  Rules rules_;
  std::map<std::pair<std::vector<int>, int>, int> memo_;
};

// The 8 rule variants for m pits per row.
inline std::vector<Rules> all_variants(int m) {
  std::vector<Rules> v;
  for (auto c : {Capture::kStandard, Capture::kEmpty})
    for (auto e : {End::kImmediate, End::kOnTurn})
      for (auto r : {Remainder::kOwner, Remainder::kDiscard}) v.push_back(Rules{m, c, e, r});
  return v;
}

}  // namespace kalah::test
