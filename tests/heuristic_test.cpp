// heuristic_test.cpp: the time-bounded move search. Deepened to every game end it is exact (the
// oracle's value, and a move worth it); stopped early it still gives a legal move at once.
#include "solver/heuristic.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>

#include "solver/notation.h"
#include "solver/rank.h"
#include "solver/solver.h"
#include "tests/oracle.h"

namespace kalah {
namespace {

TEST(Heuristic, UnboundedItIsExactAndItsMoveIsBest) {
  std::mt19937_64 rng(5);
  const int m = 3;
  const Ranker ranker(m, 9);
  for (const Rules& rules : test::all_variants(m)) {
    test::Oracle oracle(rules);
    Solver solver(rules, size_t{1} << 20);
    for (int i = 0; i < 40; ++i) {
      const int s = 1 + static_cast<int>(rng() % 9);
      const Board b = ranker.unrank(s, rng() % ranker.layer_size(s));
      if (is_terminal(rules, b)) continue;
      const HeuristicMove h = heuristic_move(rules, b, nullptr);
      ASSERT_TRUE(h.exact);
      const int v = oracle.value(b);
      EXPECT_EQ(h.estimate, v);
      ASSERT_GE(h.pit, 0);
      ASSERT_GT(b.pits[h.pit], 0);
      const MoveResult r = play(rules, b, h.pit);
      EXPECT_EQ(move_value(r, solver.value(r.board)), v);
    }
  }
}

TEST(Heuristic, StoppedItStillMovesLegally) {
  const Rules rules{6};
  const Board b = start_position(6, 6).board;
  const std::atomic<bool> stopped{true};
  const HeuristicMove first = heuristic_move(rules, b, &stopped);
  EXPECT_GE(first.depth, 1);
  EXPECT_LE(first.nodes, 8192u);  // the stop is seen within a few thousand nodes
  EXPECT_FALSE(first.exact);
  EXPECT_GT(b.pits[first.pit], 0);

  std::atomic<bool> stop{false};
  std::thread timer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop = true;
  });
  const HeuristicMove deeper = heuristic_move(rules, b, &stop);
  timer.join();
  EXPECT_GE(deeper.depth, 4);
  EXPECT_FALSE(deeper.exact);
  EXPECT_GT(b.pits[deeper.pit], 0);
}

TEST(Heuristic, AFinishedGameHasNoMove) {
  const Rules rules{3};
  const HeuristicMove h =
      heuristic_move(rules, parse_position("0,0,0/1,2,0/5,3").position.board, nullptr);
  EXPECT_EQ(h.pit, -1);
  EXPECT_TRUE(h.exact);
  EXPECT_EQ(h.estimate, -3);
}

}  // namespace
}  // namespace kalah
