// proof_test.cpp: the proof writer (solver/proof.h) and the solver's proving moves, held to the
// oracle in every variant, with and without leaves. The certificates it writes are checked by
// tools/checker/check_certificate.py in certificate_test.py.
#include "solver/proof.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "game/value.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

// The oracle's values as leaves: boards of up to `top` seeds.
class OracleLeaves : public LeafValues {
 public:
  OracleLeaves(const Rules& r, int top) : oracle_(r), top_(top) {}
  int max_seeds() const override { return top_; }
  int value(const Board& b) const override { return oracle_.value(b); }

 private:
  mutable test::Oracle oracle_;
  int top_;
};

TEST(Proof, ProvesTheValueAndNothingElse) {
  std::mt19937_64 rng(20261202);
  for (int m = 3; m <= 4; ++m) {
    for (const Rules& r : test::all_variants(m)) {
      test::Oracle oracle(r);
      for (const int top : {-1, 4}) {
        const OracleLeaves leaves(r, top);
        for (int i = 0; i < 6; ++i) {
          const Board b = test::random_board(rng, m, 8 + static_cast<int>(rng() % 5));
          const int v = oracle.value(b);
          SCOPED_TRACE(describe(r) + " leaves " + std::to_string(top));
          ProofWriter proof(r, top < 0 ? nullptr : &leaves, 1 << 20);
          proof.prove(b, v);
          EXPECT_EQ(proof.moves().empty(), proof.positions() == 0);
          for (const int wrong : {v - 2, v - 1, v + 1, v + 2}) {
            ProofWriter bad(r, top < 0 ? nullptr : &leaves, 1 << 20);
            EXPECT_THROW(bad.prove(b, wrong), std::logic_error) << wrong << " for " << v;
          }
        }
      }
    }
  }
}

TEST(Proof, ProvingMovesReachTheBound) {
  std::mt19937_64 rng(7);
  for (const Rules& r : test::all_variants(4)) {
    test::Oracle oracle(r);
    Solver solver(r, 1 << 20);
    for (int i = 0; i < 30; ++i) {
      const Board b = test::random_board(rng, 4, 6 + static_cast<int>(rng() % 6));
      if (is_terminal(r, b)) continue;
      const int v = oracle.value(b);
      const int pit = solver.proving_move(b, v);
      ASSERT_GE(pit, 0);
      const MoveResult m = play(r, b, pit);
      EXPECT_EQ(move_value(m, oracle.value(m.board)), v) << describe(r);
      EXPECT_EQ(solver.proving_move(b, v + 1), -1);
    }
  }
}

}  // namespace
}  // namespace kalah
