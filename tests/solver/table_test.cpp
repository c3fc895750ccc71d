// table_test.cpp: the transposition table's growth keeps what it holds, and a parallel search
// whose shared table grows many times finds the sequential value.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <random>
#include <vector>

#include "db/rank.h"
#include "parallel/parallel_search.h"
#include "solver/solver.h"
#include "solver/transposition_table.h"

namespace kalah {
namespace {

TEST(Table, SharedTableGrowsInPlaceKeepingEveryEntry) {
  TranspositionTable table(size_t{64} << 20, /*shared=*/true);
  const size_t initial = table.capacity();
  const Ranker ranker(6, 20);
  std::vector<Board> boards;
  // Half the initial capacity: with two entries a bucket, few are evicted before growing.
  for (uint64_t r = 0; boards.size() < initial / 8; r += 7919)
    boards.push_back(ranker.unrank(20, r));
  for (size_t i = 0; i < boards.size(); ++i)
    table.store(boards[i], -static_cast<int>(i % 20), static_cast<int>(i % 13), i % 6, i);
  std::vector<bool> held(boards.size());
  TranspositionTable::Entry e;
  for (size_t i = 0; i < boards.size(); ++i) held[i] = table.find(boards[i], e);

  constexpr uint64_t lost_work = TranspositionTable::kLostWork;
  table.add_lost_work(lost_work * initial / 2);
  EXPECT_FALSE(table.growth_wanted());
  table.add_lost_work(lost_work * initial);
  ASSERT_TRUE(table.growth_wanted());
  const size_t before = table.grow_shared();
  table.split(0, before / 3);  // in pieces, as threads would
  table.split(before / 3, before);
  EXPECT_FALSE(table.growth_wanted());
  EXPECT_EQ(table.capacity(), 2 * initial);
  for (size_t i = 0; i < boards.size(); ++i) {
    ASSERT_EQ(table.find(boards[i], e), held[i]) << i;
    if (!held[i]) continue;
    EXPECT_EQ(e.lo, -static_cast<int>(i % 20));
    EXPECT_EQ(e.hi, static_cast<int>(i % 13));
    EXPECT_EQ(e.move, static_cast<int>(i % 6));
  }
  // Up to the limit and no further.
  while (table.capacity() < (size_t{64} << 20) / 32) {
    table.add_lost_work(lost_work * table.capacity() + 1);
    table.split(0, table.grow_shared());
  }
  table.add_lost_work(uint64_t{1} << 40);
  EXPECT_FALSE(table.growth_wanted());
}

TEST(Table, AGrowingSharedTableGivesTheSequentialValue) {
  // Kalah(4,5) searches ~10^6 nodes: the 1 MiB start grows several times, stopping and rerunning
  // the root moves' searches each time.
  for (auto capture : {Capture::kStandard, Capture::kEmpty}) {
    const Rules rules{4, capture, End::kImmediate, Remainder::kOwner};
    Solver sequential(rules, 64 << 20);
    const int expected = sequential.value(start_board(4, 5));
    for (int threads : {2, 8}) {
      const SearchResult found = tbb::task_arena(threads).execute([&] {
        return value_parallel({.rules = rules, .table_bytes = 64 << 20},
                              Position{start_board(4, 5)});
      });
      EXPECT_EQ(found.margin.lower, expected) << threads << " threads";
      EXPECT_EQ(found.margin.upper, expected) << threads << " threads";
      EXPECT_GE(found.table_bytes, 4u << 20) << "the table did not grow twice";
    }
  }
}

}  // namespace
}  // namespace kalah
