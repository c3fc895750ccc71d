// database_test.cpp: reading databases: search with database leaves, concurrent probes.
#include "db/database.h"

#include <gtest/gtest.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <random>

#include "game/notation.h"
#include "parallel/parallel_search.h"
#include "solver/solver.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

TEST(DatabaseSearch, SearchWithLeavesEqualsSearchWithoutAndTheDatabase) {
  std::mt19937_64 rng(4242);
  for (int m : {3, 4}) {
    const int top = m == 3 ? 10 : 8;
    for (const Rules& rules : test::all_variants(m)) {
      test::TempDir dir;
      test::build(dir.str(), rules, top);
      const Database db(dir.str(), rules);
      // The same database through a 1 KiB cache: smaller than the database, so it evicts.
      const Database evicting(dir.str(), rules, 1 << 10);
      Solver plain(rules, 4 << 20), leaves(rules, 4 << 20, &db), tiny(rules, 256, &db),
          small_cache(rules, 4 << 20, &evicting);
      const Ranker ranker(m, 2 * top);
      for (int i = 0; i < 30; ++i) {
        const int s = 1 + static_cast<int>(rng() % (2 * top));  // half in the database, half above
        const Board b = ranker.unrank(
            s, std::uniform_int_distribution<uint64_t>(0, ranker.layer_size(s) - 1)(rng));
        const int expected = plain.value(b);
        const std::string where = describe(rules) + " board " + format_relative(Position{b}, m);
        ASSERT_EQ(leaves.value(b), expected) << where;
        ASSERT_EQ(small_cache.value(b), expected) << where << " (evicting cache)";
        ASSERT_EQ(tiny.value(b), expected) << where << " (tiny table)";
        // The parallel search with and without the database, on 1, 2 and 8 threads (more
        // threads than cores, and than root moves: helpers share moves and the table).
        const LeafValues* const sources[] = {&db, nullptr};
        for (const LeafValues* leaf_values : sources)
          for (int threads : {1, 2, 8}) {
            const SearchResult found = tbb::task_arena(threads).execute([&] {
              return value_parallel({.rules = rules, .leaves = leaf_values, .table_bytes = 1 << 16},
                                    Position{b});
            });
            ASSERT_EQ(found.margin.lower, expected)
                << where << " (value_parallel, " << threads << " threads)";
            ASSERT_EQ(found.margin.upper, expected)
                << where << " (value_parallel, " << threads << " threads)";
            // The move it names is worth the value.
            if (is_terminal(rules, b)) {
              ASSERT_EQ(found.best_pit, -1) << where;
            } else {
              ASSERT_GE(found.best_pit, 0) << where;
              const MoveResult r = play(rules, b, found.best_pit);
              ASSERT_EQ(move_value(r, plain.value(r.board)), expected) << where << " best move";
            }
          }
        if (s <= top) {
          ASSERT_EQ(db.probe(b), expected) << where;
        }
      }
      EXPECT_GT(leaves.probes(), 0u);
    }
  }
}

// The full analysis (the value, then every other move's exact value over one shared table)
// equals, move by move and line by line, the analysis a plain sequential search gives, on 1, 2
// and 8 threads, with and without database leaves, in every variant.
TEST(DatabaseSearch, FullAnalysisEqualsASequentialSearchOfEveryMove) {
  std::mt19937_64 rng(2424);
  for (int m : {3, 4, 5}) {
    const int top = m == 3 ? 10 : 8;
    for (const Rules& rules : test::all_variants(m)) {
      test::TempDir dir;
      test::build(dir.str(), rules, top);
      const Database db(dir.str(), rules);
      Solver plain(rules, 4 << 20);
      const Ranker ranker(m, 2 * top + 2);
      for (int i = 0; i < 8; ++i) {
        const int s = top + 1 + static_cast<int>(rng() % (top + 2));  // above the database
        Position p{ranker.unrank(
            s, std::uniform_int_distribution<uint64_t>(0, ranker.layer_size(s) - 1)(rng))};
        p.mover_store = static_cast<int>(rng() % 5);
        p.opponent_store = static_cast<int>(rng() % 5);
        const Analysis expected = analyse(plain, p);
        const std::string where = describe(rules) + " " + format_relative(p, m);
        const LeafValues* const sources[] = {&db, nullptr};
        for (const LeafValues* leaves : sources)
          for (int threads : {1, 2, 8}) {
            const SearchResult pa = tbb::task_arena(threads).execute([&] {
              return analyse_parallel({.rules = rules, .leaves = leaves, .table_bytes = 1 << 16},
                                      p);
            });
            const std::string how = where + " (" + std::to_string(threads) + " threads" +
                                    (leaves ? ", database)" : ")");
            ASSERT_TRUE(pa.complete()) << how;
            EXPECT_EQ(pa.margin.lower, expected.value) << how;
            EXPECT_EQ(pa.margin.upper, expected.value) << how;
            EXPECT_EQ(pa.analysis.value, expected.value) << how;
            ASSERT_EQ(pa.analysis.moves.size(), expected.moves.size()) << how;
            for (size_t k = 0; k < expected.moves.size(); ++k) {
              EXPECT_EQ(pa.analysis.moves[k].pit, expected.moves[k].pit) << how;
              EXPECT_EQ(pa.analysis.moves[k].value, expected.moves[k].value) << how;
              EXPECT_EQ(pa.analysis.moves[k].turn, expected.moves[k].turn) << how;
            }
            EXPECT_EQ(pa.analysis.best_line, expected.best_line) << how;
          }
      }
    }
  }
}

TEST(DatabaseSearch, ConcurrentProbesAgreeWithOneThread) {
  // Threads probing the same fresh blocks at once, in both cache modes, against one thread.
  const Rules rules{5, Capture::kEmpty, End::kImmediate, Remainder::kOwner};
  test::TempDir dir;
  test::build(dir.str(), rules, 12);
  const Database reference(dir.str(), rules);
  std::mt19937_64 rng(7);
  std::vector<Board> boards(100000);
  for (auto& b : boards) {
    const int s = 1 + static_cast<int>(rng() % 12);
    b = reference.ranker().unrank(
        s, std::uniform_int_distribution<uint64_t>(0, reference.ranker().layer_size(s) - 1)(rng));
  }
  std::vector<int> expected;
  for (const auto& b : boards) expected.push_back(*reference.probe(b));
  for (size_t cache : {size_t{1} << 40, size_t{1} << 20}) {  // resident, and evicting
    for (int round = 0; round < 3; ++round) {
      const Database db(dir.str(), rules, cache);
      std::atomic<int> wrong{0};
      tbb::parallel_for(size_t{0}, boards.size(), [&](size_t i) {
        if (*db.probe(boards[i]) != expected[i]) ++wrong;
      });
      EXPECT_EQ(wrong.load(), 0) << "cache " << cache;
    }
  }
}

}  // namespace
}  // namespace kalah
