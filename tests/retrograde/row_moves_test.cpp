// row_moves_test.cpp: the row tables the builder sows through (retrograde/row_moves.h) against
// play().
#include "retrograde/row_moves.h"

#include <gtest/gtest.h>

#include "tests/oracle.h"

namespace kalah {
namespace {

// Every move of every board of every row pair up to 9 seeds, m = 1..5, every variant: the child
// row_child finds from the tables is the one play() reaches (gain, extra turn, both rows).
TEST(RowMoves, EveryRowAndPitMatchesPlayInEveryVariant) {
  for (int m = 1; m <= 5; ++m) {
    const int top = 9;
    const Ranker ranker(m, top);
    for (const Rules& rules : test::all_variants(m)) {
      uint64_t moves = 0;
      for (int k = 0; k <= top; ++k)
        for (int ko = 0; k + ko <= top; ++ko) {
          const Rows mover(ranker, k), opponent(ranker, ko);
          for (size_t i = 0; i < mover.set.size(); ++i)
            for (size_t j = 0; j < opponent.set.size(); ++j)
              for (int pit = 0; pit < m; ++pit) {
                const uint8_t* x = mover.set.row(i);
                if (x[pit] == 0) continue;
                const Board b = board_of_rows(pack_row(x, m), pack_row(opponent.set.row(j), m), m);
                const MoveResult want = play(rules, b, pit);
                const RowChild got = row_child(rules, ranker, mover, i, opponent, j, pit);
                const Board& c = want.board;
                ASSERT_EQ(got.gain, want.gain) << describe(rules) << " m=" << m << " pit " << pit;
                ASSERT_EQ(got.extra_turn, want.extra_turn);
                ASSERT_EQ(got.seeds, mover_seeds(c, m));
                ASSERT_EQ(got.mover, ranker.row_rank(&c.pits[0]));
                ASSERT_EQ(got.opponent, ranker.row_rank(&c.pits[m]));
                ++moves;
              }
        }
      EXPECT_GT(moves, 0u);
    }
  }
}

// A row set lists every row of k seeds once, in non-increasing Φ, groups closing each run of
// equal Φ: the order the builder's wavefront relies on.
TEST(RowMoves, RowSetsAreInPhiOrder) {
  for (int m = 1; m <= 6; ++m) {
    const Ranker ranker(m, 10);
    for (int k = 0; k <= 10; ++k) {
      const RowSet set(ranker, k);
      ASSERT_EQ(set.size(), ranker.row_count(k));
      std::vector<bool> seen(set.size(), false);
      for (size_t i = 0; i < set.size(); ++i) {
        ASSERT_EQ(ranker.row_rank(set.row(i)), set.ranks[i]);
        ASSERT_FALSE(seen[set.ranks[i]]) << "a row listed twice";
        seen[set.ranks[i]] = true;
      }
      size_t begin = 0;
      for (const size_t end : set.group_end) {
        ASSERT_LT(begin, end);
        const int phi = row_potential(set.row(begin), m);
        for (size_t i = begin; i < end; ++i) ASSERT_EQ(row_potential(set.row(i), m), phi);
        if (end < set.size()) {
          ASSERT_GT(phi, row_potential(set.row(end), m));
        }
        begin = end;
      }
      ASSERT_EQ(set.group_end.back(), set.size());
    }
  }
}

}  // namespace
}  // namespace kalah
