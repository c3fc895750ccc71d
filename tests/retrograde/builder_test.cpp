// builder_test.cpp: every board of small databases, in every rule variant, equals the solver.
#include "retrograde/builder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "db/database.h"
#include "game/notation.h"
#include "solver/solver.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

TEST(Builder, EveryBoardOfSmallDatabasesEqualsTheSolver) {
  for (auto [m, max_seeds] : {std::pair{3, 12}, std::pair{4, 10}}) {
    for (const Rules& rules : test::all_variants(m)) {
      test::TempDir dir;
      test::build(dir.str(), rules, max_seeds);
      const Database db(dir.str(), rules);
      ASSERT_EQ(db.max_seeds(), max_seeds);
      Solver solver(rules, 8 << 20);
      for (int s = 1; s <= max_seeds; ++s) {
        Board b = db.ranker().first(s);
        do {
          ASSERT_EQ(db.probe(b), solver.value(b))
              << describe(rules) << " board " << format_relative(Position{b}, m);
        } while (db.ranker().next(b));
      }
      Board above = start_board(m, 0);
      above.pits[0] = static_cast<uint8_t>(max_seeds);
      above.pits[m] = 1;
      EXPECT_FALSE(db.probe(above).has_value()) << "a board above the top layer has no value";
    }
  }
}

// Beyond the published table: 7 and 8 pits a row, every variant, small layers against the
// search on every board and against the plain exhaustive solver on a sample.
TEST(Builder, SevenAndEightPitsEqualTheSolverAndTheOracle) {
  std::mt19937_64 rng(78);
  for (auto [m, max_seeds] : {std::pair{7, 7}, std::pair{8, 6}}) {
    for (const Rules& rules : test::all_variants(m)) {
      test::TempDir dir;
      test::build(dir.str(), rules, max_seeds);
      const Database db(dir.str(), rules);
      Solver solver(rules, 8 << 20);
      test::Oracle oracle(rules);
      for (int s = 1; s <= max_seeds; ++s) {
        Board b = db.ranker().first(s);
        do {
          const int v = *db.probe(b);
          ASSERT_EQ(v, solver.value(b))
              << describe(rules) << " board " << format_relative(Position{b}, m);
          if (rng() % 64 == 0) {
            ASSERT_EQ(v, oracle.value(b)) << format_relative(Position{b}, m);
          }
        } while (db.ranker().next(b));
      }
    }
  }
}

TEST(Builder, OptionsOutOfRangeAreRefusedBeforeAnyWork) {
  test::TempDir dir;
  BuildOptions o;
  o.dir = dir.str("never");
  o.rules = Rules{6, Capture::kEmpty, End::kImmediate, Remainder::kOwner};
  o.max_seeds = 10;
  for (auto bad : std::initializer_list<void (*)(BuildOptions&)>{
           [](BuildOptions& b) { b.max_seeds = 0; },
           [](BuildOptions& b) { b.max_seeds = 255; },
           [](BuildOptions& b) {
             b.rules.remainder = Remainder::kDiscard;
             b.max_seeds = 128;
           },
           [](BuildOptions& b) { b.format.zstd_level = 20; },
           [](BuildOptions& b) { b.threads = -1; },
           [](BuildOptions& b) { b.rules.pits = 9; },
       }) {
    BuildOptions b = o;
    bad(b);
    BuildObserver quiet;
    EXPECT_THROW(build_database(b, quiet), std::invalid_argument);
  }
  EXPECT_FALSE(std::filesystem::exists(o.dir)) << "a refused build created its directory";
}

}  // namespace
}  // namespace kalah
