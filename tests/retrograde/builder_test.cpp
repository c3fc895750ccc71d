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

// A build over a format-1 database that searches have used rewrites each layer in format 3 and
// removes the decoded copies, format 1's cache, which nothing reads any more (they were left
// behind: 2.4x the database's size); a conversion that cannot write says so and leaves the layer.
TEST(Builder, AConversionLeavesNoDecodedCopiesAndNamesAFailedWrite) {
  namespace fs = std::filesystem;
  const test::TempDir dir;
  const std::string db = " --db " + dir.str() + " --pits 4 --max-seeds 10 --capture empty";
  ASSERT_EQ(test::kalah("build" + db + " --format 1").status, 0);
  ASSERT_EQ(test::kalah("solve --pits 4 --seeds 3 --capture empty --db " + dir.str()).status, 0);
  const auto copies = [&] {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir.str("decoded")))
      n += e.path().extension() == ".values";
    return n;
  };
  ASSERT_EQ(copies(), 10u) << "the search wrote no decoded copies";
  // A disk that takes no more (a file size limit: write fails with EFBIG, not the signal).
  const test::Ran full =
      test::shell("trap '' XFSZ; ulimit -f 1; " + std::string(KALAH_EXE) + " build" + db);
  EXPECT_EQ(full.status, 1) << full.out;
  EXPECT_NE(full.out.find("File too large; layer "), std::string::npos) << full.out;
  EXPECT_NE(full.out.find(" could not be rewritten in format 3 and is left as it was"),
            std::string::npos)
      << full.out;
  EXPECT_EQ(full.out.find("move this one away"), std::string::npos) << full.out;
  const test::Ran converted = test::kalah("build" + db);
  ASSERT_EQ(converted.status, 0) << converted.out;
  EXPECT_EQ(copies(), 0u);
  EXPECT_NE(converted.out.find("layer 10: its decoded copy of format 1 removed"), std::string::npos)
      << converted.out;
  ASSERT_EQ(test::kalah("query --capture empty --db " + dir.str() + " 1,1,1,1/1,1,1,1").status, 0);
}

}  // namespace
}  // namespace kalah
