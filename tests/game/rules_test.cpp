// rules_test.cpp: hand-checked sowings, captures, extra turns, game ends and remainders, then the
// rules engine against the seed-by-seed oracle on every board of small layers.
#include "game/rules.h"

#include <gtest/gtest.h>

#include "db/rank.h"
#include "game/notation.h"
#include "solver/solver.h"
#include "tests/oracle.h"

namespace kalah {
namespace {

Board board(const std::string& text) {
  return parse_position(text).position.board;
}

Rules rules(int m, Capture c = Capture::kStandard, End e = End::kImmediate,
            Remainder r = Remainder::kOwner) {
  return Rules{m, c, e, r};
}

TEST(Rules, ShortSowingPassesTheTurnAndFlipsTheBoard) {
  const MoveResult r = play(rules(6), board("4,4,4,4,4,4/4,4,4,4,4,4"), 0);
  EXPECT_FALSE(r.extra_turn);
  EXPECT_FALSE(r.capture);
  EXPECT_EQ(r.gain, 0);
  EXPECT_EQ(r.board, board("4,4,4,4,4,4/0,5,5,5,5,4"));
}

TEST(Rules, LastSeedInStoreGivesAnExtraTurn) {
  const MoveResult r = play(rules(6), board("4,4,4,4,4,4/4,4,4,4,4,4"), 2);
  EXPECT_TRUE(r.extra_turn);
  EXPECT_EQ(r.gain, 1);
  EXPECT_EQ(r.board, board("4,4,0,5,5,5/4,4,4,4,4,4"));  // not flipped: same mover
}

TEST(Rules, SowingSkipsTheOpponentsStore) {
  // m=3: store, the three opponent pits, then (past the opponent's store) own pits 1 and 2. The
  // last seed lands in own empty pit 2, opposite opponent pit 2 (now 1 seed): both are captured.
  const MoveResult r = play(rules(3), board("0,0,6/0,0,0"), 2);
  EXPECT_FALSE(r.extra_turn);
  EXPECT_TRUE(r.capture);
  EXPECT_EQ(r.gain, 1 + 2);
  EXPECT_EQ(r.board, board("1,0,1/1,0,0"));
}

TEST(Rules, LapDropsASeedEverywhereIncludingTheOrigin) {
  // m=2, cycle of 5: 7 seeds = one lap and 2 more (pit 2, store).
  const MoveResult r = play(rules(2), board("7,1/2,3"), 0);
  EXPECT_TRUE(r.extra_turn);
  EXPECT_EQ(r.gain, 2);
  EXPECT_EQ(r.board, board("1,3/3,4"));
}

TEST(Rules, FullLapEndsInTheEmptiedOriginAndCaptures) {
  // 5 seeds on m=2: exactly one lap, last seed back in the origin, which was emptied: a capture of
  // it and the opposite pit (opponent pit 2, 2+1 seeds).
  const MoveResult r = play(rules(2), board("5,0/1,2"), 0);
  EXPECT_TRUE(r.capture);
  EXPECT_EQ(r.gain, 1 + 1 + 3);
  EXPECT_EQ(r.board, board("2,0/0,1"));
  // Two laps leave two seeds in the origin: no capture.
  const MoveResult two = play(rules(2), board("10,0/0,0"), 0);
  EXPECT_FALSE(two.capture);
  EXPECT_EQ(two.gain, 2);
  EXPECT_EQ(two.board, board("2,2/2,2"));
}

TEST(Rules, CaptureStandardNeedsSeedsOpposite) {
  const MoveResult a = play(rules(3, Capture::kStandard), board("1,0,0/0,0,2"), 0);
  EXPECT_FALSE(a.capture);
  EXPECT_EQ(a.gain, 0);
  EXPECT_EQ(a.board, board("0,0,2/0,1,0"));
  const MoveResult b = play(rules(3, Capture::kStandard), board("1,0,0/0,5,2"), 0);
  EXPECT_TRUE(b.capture);
  EXPECT_EQ(b.gain, 6);
  EXPECT_EQ(b.board, board("0,0,2/0,0,0"));
}

TEST(Rules, CaptureEmptyTakesTheLastSeedEvenWithNothingOpposite) {
  const MoveResult a = play(rules(3, Capture::kEmpty), board("1,0,0/0,0,2"), 0);
  EXPECT_TRUE(a.capture);
  EXPECT_EQ(a.gain, 1);
  EXPECT_EQ(a.board, board("0,0,2/0,0,0"));
}

TEST(Rules, NoCaptureOnTheOpponentsSide) {
  const MoveResult r = play(rules(3), board("0,0,2/0,3,0"), 2);  // store, then opponent pit 1
  EXPECT_FALSE(r.capture);
  EXPECT_EQ(r.board, board("1,3,0/0,0,0"));
}

TEST(Rules, ExtraTurnChain) {
  Position p = parse_position("0,2,1/1,1,1/0,0").position;
  const Rules r = rules(3);
  for (int pit : parse_turn("3-2", 3)) p = apply(r, p, pit);
  EXPECT_EQ(p.mover, Side::kSouth);  // still South's turn after two extra moves
  EXPECT_EQ(format_relative(p, 3), "0,0,1/1,1,1/2,0");
  p = apply(r, p, 2);  // a third extra turn
  EXPECT_EQ(format_relative(p, 3), "0,0,0/1,1,1/3,0");
}

TEST(Rules, TerminalBoardsAndRemainders) {
  const Board over = board("0,0,0/1,2,0");
  EXPECT_TRUE(is_terminal(rules(3), over));
  EXPECT_TRUE(is_terminal(rules(3, Capture::kStandard, End::kOnTurn), over));
  EXPECT_EQ(terminal_value(rules(3), over), -3);
  EXPECT_EQ(
      terminal_value(rules(3, Capture::kStandard, End::kImmediate, Remainder::kDiscard), over), 0);
  const Board opponent_empty = board("1,0,0/0,0,0");
  EXPECT_TRUE(is_terminal(rules(3), opponent_empty));
  EXPECT_FALSE(is_terminal(rules(3, Capture::kStandard, End::kOnTurn), opponent_empty));
}

TEST(Rules, EndAndRemainderRulesChangeValues) {
  // [1,1]/[0,0]: under `immediate` the game is already over; under `on-turn` the mover plays on.
  Solver owner_now(rules(2), 1 << 16);
  Solver discard_now(rules(2, Capture::kStandard, End::kImmediate, Remainder::kDiscard), 1 << 16);
  Solver owner_later(rules(2, Capture::kStandard, End::kOnTurn, Remainder::kOwner), 1 << 16);
  Solver discard_later(rules(2, Capture::kStandard, End::kOnTurn, Remainder::kDiscard), 1 << 16);
  Solver empty_later(rules(2, Capture::kEmpty, End::kOnTurn, Remainder::kDiscard), 1 << 16);
  const Board b = board("1,1/0,0");
  EXPECT_EQ(owner_now.value(b), 2);
  EXPECT_EQ(discard_now.value(b), 0);
  // Pit 2 to the store (extra turn), pit 1 into the empty pit 2: nothing opposite, turn passes,
  // North has no seeds: the game ends with one seed on South's side.
  EXPECT_EQ(owner_later.value(b), 2);
  EXPECT_EQ(discard_later.value(b), 1);
  EXPECT_EQ(empty_later.value(b), 2);  // the last seed is captured instead
}

TEST(Rules, PotentialGrowsOnEverySameLayerMove) {
  for (int m = 1; m <= 4; ++m) {
    const Ranker ranker(m, 10);
    for (const Rules& r : test::all_variants(m)) {
      for (int s = 1; s <= 10; ++s) {
        Board b = ranker.first(s);
        do {
          for (int pit = 0; pit < m; ++pit) {
            if (b.pits[pit] == 0) continue;
            const MoveResult child = play(r, b, pit);
            ASSERT_EQ(seeds(child.board) + child.gain, s);
            if (seeds(child.board) == s) {
              ASSERT_GT(potential(child.board, m), potential(b, m));
            }
          }
        } while (ranker.next(b));
      }
    }
  }
}

TEST(Rules, EveryBoardOfSmallLayersMatchesTheOracle) {
  // The oracle implements the rules again, seed by seed on absolute bins, and plays to the end.
  for (int m = 1; m <= 3; ++m) {
    const int max_seeds = m == 3 ? 8 : 10;
    const Ranker ranker(m, max_seeds);
    for (const Rules& r : test::all_variants(m)) {
      test::Oracle oracle(r);
      Solver solver(r, 1 << 20);
      for (int s = 0; s <= max_seeds; ++s) {
        Board b = ranker.first(s);
        do {
          ASSERT_EQ(solver.value(b), oracle.value(b))
              << describe(r) << " board " << format_relative(Position{b}, m);
        } while (ranker.next(b));
      }
    }
  }
}

}  // namespace
}  // namespace kalah
