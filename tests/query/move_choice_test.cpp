// move_choice_test.cpp: the move kalah plays (query/move_choice.h) and its levels
// (query/levels.h), through run()'s Ask::kMove as every front end asks it, against the oracle:
// a proven move is a best move, one found in no time is legal and says it is not proven, a
// weaker level stays within its seeds of the best and says what the best was; the levels' table
// and its names.
#include "query/move_choice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <stdexcept>

#include "game/any_board.h"
#include "query/levels.h"
#include "query/query.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

// The final margin for p's mover after playing pit, under perfect play (the oracle's).
int margin_after(test::Oracle& oracle, const Rules& r, const Position& p, int pit) {
  const Position next = apply(r, p, pit);
  const int v = final_margin(next, oracle.value(next.board));
  return next.mover == p.mover ? v : -v;
}

Query move_query(const Rules& r, const Position& p, std::chrono::milliseconds time,
                 const Level* level = nullptr) {
  Query q;
  q.rules = r;
  q.position = p;
  q.ask = Ask::kMove;
  q.threads = 1;
  q.table_mb = 1;
  q.level = level;
  q.deadline = Query::Clock::now() + time;
  return q;
}

// Positions of m = 3 with a few seeds, South to move, the game not over.
std::vector<Position> positions(const Rules& r, int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Position> out;
  while (static_cast<int>(out.size()) < count) {
    Position p;
    p.board = test::random_board(rng, r.pits, 4 + static_cast<int>(rng() % 8));
    if (!is_terminal(r, p.board)) out.push_back(p);
  }
  return out;
}

TEST(MoveChoice, AProvenMoveIsABestMoveInEveryVariant) {
  for (const Rules& r : test::all_variants(3)) {
    test::Oracle oracle(r);
    for (const Position& p : positions(r, 12, 7)) {
      const Outcome o = run(move_query(r, p, std::chrono::seconds(30)));
      ASSERT_TRUE(o.move);
      const MoveChoice& c = *o.move;
      ASSERT_TRUE(c.proven) << describe(r);  // a small game is proven long before 30 s
      int best = -1000;
      for (int pit = 0; pit < r.pits; ++pit)
        if (p.board.pits[pit]) best = std::max(best, margin_after(oracle, r, p, pit));
      EXPECT_EQ(c.value, best) << describe(r);
      EXPECT_EQ(margin_after(oracle, r, p, c.pit), best) << describe(r) << " pit " << c.pit + 1;
    }
  }
}

TEST(MoveChoice, AMoveDueAtOnceIsLegalAndSaysItIsNotProven) {
  const Rules r{6};
  std::mt19937_64 rng(3);
  Position p;
  p.board = test::random_board(rng, 6, 48);
  const Outcome o = run(move_query(r, p, std::chrono::milliseconds(0)));
  ASSERT_TRUE(o.move);
  EXPECT_GT(p.board.pits[o.move->pit], 0);
  EXPECT_FALSE(o.move->proven);
  EXPECT_EQ(o.move->source, Source::kHeuristic);
  EXPECT_GE(o.move->depth, 1);  // the first iteration always finishes
}

TEST(MoveChoice, ABoardOfAnySizeGetsALegalMoveAndSmallOnesAreSolved) {
  const Rules r{3};
  test::Oracle oracle(r);
  for (const Position& p : positions(r, 10, 11)) {
    AnyBoard b;
    b.pits.assign(p.board.pits.begin(), p.board.pits.begin() + 2 * r.pits);
    const MoveChoice c = choose_move(r, b, 0, MoveClock::now() + std::chrono::seconds(10));
    ASSERT_GE(c.pit, 0);
    ASSERT_GT(b.pits[c.pit], 0);
    ASSERT_TRUE(c.proven);  // the heuristic reaches every game end of so small a board
    EXPECT_EQ(c.value, oracle.value(p.board));
  }
  AnyBoard huge;
  huge.pits.assign(2 * 20, 300);  // beyond Board: 20 pits a row, 300 seeds each
  const MoveChoice c = choose_move(r, huge, 0, MoveClock::now() + std::chrono::milliseconds(50));
  ASSERT_GE(c.pit, 0);
  EXPECT_LT(c.pit, 20);
  EXPECT_FALSE(c.proven);
}

TEST(Levels, TheTableNamesEachLevelAndRefusesOthers) {
  std::vector<std::string> names;
  for (const Level& l : levels()) names.push_back(l.name);
  EXPECT_EQ(names, (std::vector<std::string>{"perfect", "strong", "quick", "casual", "beginner"}));
  EXPECT_EQ(level_named("casual").within, 3);
  EXPECT_EQ(level_named("beginner").within, 8);
  EXPECT_FALSE(level_named("strong").weaker());
  try {
    level_named("god");
    FAIL() << "an unknown level was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "the level must be perfect, strong, quick, casual or beginner, got 'god'");
  }
  const auto json = levels_json();
  ASSERT_EQ(json.size(), 5u);
  EXPECT_EQ(json[3].str(), R"({"name": "casual", "seconds": 1, "within": 3})");
  EXPECT_EQ(json[0].str(), R"({"name": "perfect", "seconds": 30})");
}

// A weaker level's move is worth at least the best less its seeds and says what the best was;
// where a worse move is that near, it is not always the best (40 such tries: all best by chance
// at most once in 10^7 runs, with three pits).
TEST(Levels, AWeakerLevelPlaysWithinItsSeedsOfTheBest) {
  const Rules r{3, Capture::kEmpty};
  test::Oracle oracle(r);
  for (const char* name : {"casual", "beginner"}) {
    const Level& level = level_named(name);
    int choices = 0, not_best = 0;
    for (const Position& p : positions(r, 200, 5)) {
      std::vector<int> values;
      for (int pit = 0; pit < r.pits; ++pit)
        if (p.board.pits[pit]) values.push_back(margin_after(oracle, r, p, pit));
      const int best = *std::max_element(values.begin(), values.end());
      if (std::none_of(values.begin(), values.end(),
                       [&](int v) { return v < best && v >= best - level.within; }))
        continue;
      for (int i = 0; i < 5; ++i, ++choices) {
        const Outcome o = run(move_query(r, p, std::chrono::seconds(30), &level));
        ASSERT_TRUE(o.move);
        const MoveChoice& c = *o.move;
        ASSERT_TRUE(c.proven && c.best) << name;
        EXPECT_EQ(*c.best, best) << name;
        EXPECT_EQ(c.value, margin_after(oracle, r, p, c.pit)) << name;
        EXPECT_GE(c.value, best - level.within) << name;
        not_best += c.value < best;
      }
      if (choices >= 40) break;
    }
    ASSERT_GE(choices, 40) << name << ": too few positions with a choice";
    EXPECT_GT(not_best, 0) << name << " played only the best move";
  }
}

}  // namespace
}  // namespace kalah
