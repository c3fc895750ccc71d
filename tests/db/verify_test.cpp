// verify_test.cpp: db/verify.h's ways 2 and 3 on a sound database, and way 3's oracle, which the
// caller gives, heard when it disagrees.
#include "db/verify.h"

#include <gtest/gtest.h>

#include "solver/solver.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

TEST(Verify, ASoundDatabasePassesAndTheOracleDecidesWay3) {
  const Rules rules{.pits = 4};
  test::TempDir dir;
  test::build(dir.str(), rules, 8);
  const Database db(dir.str(), rules);
  Solver solver(rules, 1 << 20);
  VerifyOptions o;
  o.sample = 50;
  o.solver_sample = 10;
  o.solver_max_seeds = 8;
  for (int s = 1; s <= 8; ++s) {
    // No oracle: way 3 is skipped, way 2 still runs.
    const LayerCheck plain = check_layer(db, dir.str(), s, o);
    EXPECT_EQ(plain.solved, 0u);
    EXPECT_EQ(plain.wrong, 0u);
    EXPECT_GT(plain.recomputed, 0u);

    o.exact = [&](const Board& b) { return solver.value(b); };
    const LayerCheck solved = check_layer(db, dir.str(), s, o);
    EXPECT_EQ(solved.solved, std::min<uint64_t>(10, db.ranker().layer_size(s)));
    EXPECT_EQ(solved.wrong, 0u) << (solved.problems.empty() ? "" : solved.problems.front());

    // An oracle that is off by two on every board: each sample is a problem naming the file.
    o.exact = [&](const Board& b) { return solver.value(b) + 2; };
    const LayerCheck lied = check_layer(db, dir.str(), s, o);
    EXPECT_EQ(lied.wrong, lied.solved);
    ASSERT_FALSE(lied.problems.empty());
    EXPECT_NE(lied.problems.front().find(layer_path(dir.str(), rules, s)), std::string::npos)
        << lied.problems.front();
    o.exact = {};
  }
}

}  // namespace
}  // namespace kalah
