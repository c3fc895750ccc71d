// fair.h: fair starts (`kalah fair`, docs/design.md §11): the positions a few seeds away from the
// start of Kalah(m,n) that perfect players draw, as Neller's FairKalah defines them.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "api/query.h"

namespace kalah {

struct FairCandidate {
  Position position;  // South, the first player, to move
  int moved = 0;      // seeds moved from the start: 1..K
  int value = 0;      // the final margin for South under perfect play
};

// Every distinct position reachable from the start of Kalah(m, seeds) by moving 1..moved seeds,
// one at a time, from a pit (either row) to any other pit or either store; the start itself left
// out. Sorted by their absolute notation; values not filled in.
std::vector<FairCandidate> fair_candidates(int m, int seeds, int moved);

// Fills in every candidate's value: `base` brings the rules, the database, the threads and the
// stop flag (a stop leaves the rest unvalued: the count of those valued is returned). `done` is
// called after each.
size_t value_candidates(const Query& base, std::vector<FairCandidate>& candidates,
                        const std::function<void(size_t done)>& done = {});

}  // namespace kalah
