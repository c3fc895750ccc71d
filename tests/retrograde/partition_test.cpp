// The sharing of layers among processes (retrograde/partition.h) that a build over several
// processes uses.
#include "retrograde/partition.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace kalah {
namespace {

// Every board of every layer has exactly one owner, the one owner_of names and the one whose
// ranges hold it; a row pair goes whole to one process; no process holds more than the fair share
// plus the largest pair.
TEST(Partition, EveryBoardHasOneOwnerAndPairsStayWhole) {
  for (const int m : {3, 4, 6}) {
    const int max_seeds = m == 6 ? 16 : 14;
    const Ranker ranker(m, max_seeds);
    for (const int processes : {1, 2, 3, 4, 7}) {
      const Partition part(ranker, max_seeds, processes);
      for (int s = 0; s <= max_seeds; ++s) {
        std::vector<int> owner(ranker.layer_size(s), -1);
        uint64_t held = 0, largest_pair = 0;
        for (int p = 0; p < processes; ++p) {
          for (const RankRange& range : part.ranges(s, p))
            for (uint64_t b = range.begin; b < range.end; ++b) {
              ASSERT_EQ(owner[b], -1) << "m=" << m << " s=" << s << " board " << b;
              owner[b] = p;
            }
          held += part.boards(s, p);
        }
        ASSERT_EQ(held, ranker.layer_size(s));
        for (uint64_t b = 0; b < owner.size(); ++b)
          ASSERT_EQ(part.owner_of(s, b), owner[b]) << "m=" << m << " s=" << s << " board " << b;
        for (int k = 0; 2 * k <= s; ++k) {
          EXPECT_EQ(part.owner(s, k), part.owner(s, s - k));
          uint64_t boards = 0;
          for (const RankRange& range : pair_ranges(ranker, s, k)) {
            boards += range.end - range.begin;
            for (uint64_t b = range.begin; b < range.end; ++b)
              ASSERT_EQ(owner[b], part.owner(s, k));
          }
          largest_pair = std::max(largest_pair, boards);
        }
        for (int p = 0; p < processes; ++p)
          EXPECT_LE(part.boards(s, p), ranker.layer_size(s) / processes + largest_pair);
      }
    }
  }
}

}  // namespace
}  // namespace kalah
