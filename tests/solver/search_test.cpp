// search_test.cpp: the alpha-beta solver against published results, against the oracle, and
// against itself (move values, best lines, table sizes).
#include <gtest/gtest.h>

#include <random>

#include "game/notation.h"
#include "solver/analysis.h"
#include "solver/openings.h"
#include "solver/solver.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

constexpr Rules kEmpty{.pits = 6, .capture = Capture::kEmpty};

int start_value(int m, int n, Capture capture, size_t table_bytes = 16 << 20) {
  Rules r = kEmpty;
  r.pits = m;
  r.capture = capture;
  Solver solver(r, table_bytes);
  return solver.value(start_board(m, n));
}

// Irving, Donkers & Uiterwijk (2000): win/draw/loss for m <= 3, n = 1..6, empty capture.
TEST(Search, PublishedWinDrawLossForSmallBoards) {
  const char* table[3] = {"DLWLWD", "WLLLWW", "DWWWWL"};
  for (int m = 1; m <= 3; ++m) {
    for (int n = 1; n <= 6; ++n) {
      const int v = start_value(m, n, Capture::kEmpty);
      const char got = v > 0 ? 'W' : v < 0 ? 'L' : 'D';
      EXPECT_EQ(got, table[m - 1][n - 1]) << "Kalah(" << m << "," << n << ") value " << v;
    }
  }
}

TEST(Search, PublishedMarginsEmptyCapture) {
  EXPECT_EQ(start_value(4, 1, Capture::kEmpty), 2);
  EXPECT_EQ(start_value(4, 2, Capture::kEmpty), 6);
  EXPECT_EQ(start_value(5, 1, Capture::kEmpty), 0);
  EXPECT_EQ(start_value(5, 2, Capture::kEmpty), 0);
  EXPECT_EQ(start_value(6, 1, Capture::kEmpty), 2);
  EXPECT_EQ(start_value(4, 3, Capture::kEmpty), 8);
}

TEST(Search, Kalah43StandardCapture) {
  EXPECT_EQ(start_value(4, 3, Capture::kStandard), 6);
}

TEST(Search, TableSizeNeverChangesAResult) {
  for (auto capture : {Capture::kStandard, Capture::kEmpty}) {
    EXPECT_EQ(start_value(4, 2, capture, 64), start_value(4, 2, capture, 64 << 20));
    EXPECT_EQ(start_value(3, 4, capture, 1024), start_value(3, 4, capture, 64 << 20));
  }
}

// A random position of m pits with s seeds on the board and random stores.
Position random_position(std::mt19937_64& rng, int m, int s) {
  Position p;
  p.board = test::random_board(rng, m, s);
  p.mover_store = static_cast<int>(rng() % 10);
  p.opponent_store = static_cast<int>(rng() % 10);
  p.mover = rng() % 2 ? Side::kSouth : Side::kNorth;
  return p;
}

TEST(Search, RandomBoardsMatchTheOracle) {
  std::mt19937_64 rng(12345);
  for (int m = 4; m <= 5; ++m) {
    for (const Rules& r : test::all_variants(m)) {
      test::Oracle oracle(r);
      Solver solver(r, 1 << 20);
      for (int i = 0; i < 40; ++i) {
        const Board b = random_position(rng, m, 1 + static_cast<int>(rng() % 9)).board;
        ASSERT_EQ(solver.value(b), oracle.value(b))
            << describe(r) << " board " << format_relative(Position{b}, m);
      }
    }
  }
}

// The final margin for p's mover after playing the turns of a line to the end of the game.
int play_line(const Rules& r, Position p, const std::vector<std::vector<int>>& line) {
  const Side me = p.mover;
  for (const auto& turn : line) {
    const Side mover = p.mover;
    for (size_t i = 0; i < turn.size(); ++i) {
      EXPECT_EQ(p.mover, mover) << "a turn continued after the move passed";
      EXPECT_GT(p.board.pits[turn[i]], 0) << "an empty pit was played";
      p = apply(r, p, turn[i]);
    }
    EXPECT_TRUE(p.mover != mover || is_terminal(r, p.board)) << "a turn stopped before its end";
  }
  EXPECT_TRUE(is_terminal(r, p.board)) << "the line stops before the end of the game";
  const int margin = final_margin(p, terminal_value(r, p.board));
  return p.mover == me ? margin : -margin;
}

TEST(Search, AnalysisIsConsistentWithPlayingTheMoves) {
  std::mt19937_64 rng(777);
  for (int m : {3, 4, 6}) {
    for (const Rules& r : test::all_variants(m)) {
      Solver solver(r, 4 << 20);
      for (int i = 0; i < 6; ++i) {
        const Position p = random_position(rng, m, 4 + static_cast<int>(rng() % 14));
        const Analysis a = analyse(solver, p);
        const std::string where = describe(r) + " position " + format_relative(p, m);
        if (a.finished) {
          EXPECT_EQ(a.value, final_margin(p, terminal_value(r, p.board))) << where;
          continue;
        }
        int best = -1000;
        for (const MoveReport& mv : a.moves) {
          best = std::max(best, mv.value);
          // The move's value is the child's value, seen from this mover.
          const Position q = apply(r, p, mv.pit);
          const Analysis c = analyse(solver, q);
          EXPECT_EQ(mv.value, q.mover == p.mover ? c.value : -c.value) << where;
          // Its whole turn, then best play, reaches that value.
          std::vector<std::vector<int>> line = {mv.turn};
          Position after = p;
          for (int pit : mv.turn) after = apply(r, after, pit);
          const Analysis rest = analyse(solver, after);
          line.insert(line.end(), rest.best_line.begin(), rest.best_line.end());
          EXPECT_EQ(play_line(r, p, line), mv.value) << where << " move " << mv.pit + 1;
        }
        EXPECT_EQ(a.value, best) << where;
        EXPECT_EQ(play_line(r, p, a.best_line), a.value) << where;
      }
    }
  }
}

TEST(Search, FinishedPositionIsScoredWithoutAMove) {
  Rules r = kEmpty;
  r.pits = 3;
  Solver solver(r, 1 << 16);
  const Position p = parse_position("0,0,0/1,2,0/5,3").position;
  const Analysis a = analyse(solver, p);
  EXPECT_TRUE(a.finished);
  EXPECT_EQ(a.value, 5 - 3 - 3);
  EXPECT_TRUE(a.moves.empty());
  EXPECT_TRUE(a.best_line.empty());
  r.remainder = Remainder::kDiscard;
  Solver discard(r, 1 << 16);
  EXPECT_EQ(analyse(discard, p).value, 2);
}

// South's complete first turns by brute force, in pit order, each with its final margin for South
// by the seed-by-seed oracle (no swap).
void first_turns(const Rules& r, test::Oracle& oracle, const Position& p, std::vector<int>& turn,
                 std::vector<std::pair<std::vector<int>, int>>& out) {
  for (int pit = 0; pit < r.pits; ++pit) {
    if (p.board.pits[pit] == 0) continue;
    turn.push_back(pit);
    const Position q = apply(r, p, pit);
    if (q.mover == Side::kSouth && !is_terminal(r, q.board)) {
      first_turns(r, oracle, q, turn, out);
    } else {
      const int margin = final_margin(q, oracle.value(q.board));
      out.push_back({turn, q.mover == Side::kSouth ? margin : -margin});
    }
    turn.pop_back();
  }
}

TEST(Search, PieRuleMatchesBruteForce) {
  for (int m = 1; m <= 3; ++m) {
    for (int n = 1; n <= 3; ++n) {
      for (auto capture : {Capture::kStandard, Capture::kEmpty}) {
        const Rules r{m, capture, End::kImmediate, Remainder::kOwner};
        const std::string game =
            "Kalah(" + std::to_string(m) + "," + std::to_string(n) + ") " + describe(r);
        test::Oracle oracle(r);
        Solver solver(r, 1 << 20);
        const Position start{start_board(m, n)};
        const PieAnalysis pie = pie_rule(r, start, values_of(solver));
        std::vector<int> turn;
        std::vector<std::pair<std::vector<int>, int>> expected;
        first_turns(r, oracle, start, turn, expected);
        // North swaps exactly when South's opening wins; South picks the best of what is left.
        ASSERT_EQ(pie.openings.size(), expected.size()) << game;
        int best = -1000;
        for (size_t i = 0; i < expected.size(); ++i) {
          const auto& [turn_i, w] = expected[i];
          EXPECT_EQ(pie.openings[i].turn, turn_i) << game;
          EXPECT_EQ(pie.openings[i].value, w) << game;
          EXPECT_EQ(pie.openings[i].swapped, w > 0) << game;
          best = std::max(best, std::min(w, -w));
        }
        EXPECT_EQ(pie.value, best) << game;
        EXPECT_EQ(std::min(expected[pie.best].second, -expected[pie.best].second), best) << game;
      }
    }
  }
}

// pie_value's tests on one opening by one sequential solver (its table kept between them).
class SolverTests : public MarginTests {
 public:
  SolverTests(Solver& solver, const Position& after) : solver_(solver), after_(after) {}
  Bounds test(int beta) override {
    const int stores = after_.mover_store - after_.opponent_store;
    const int s = seeds(after_.board);
    const int v = stores + solver_.search(after_.board, beta - 1 - stores, beta - stores);
    return v >= beta ? Bounds{v, stores + s} : Bounds{stores - s, v};
  }

 private:
  Solver& solver_;
  Position after_;
};

// The pie rule's value alone equals the full pie rule's on the starts and on random positions of
// every variant, its best opening reaches it, and every opening's bounds hold its exact value.
TEST(Search, PieValueMatchesThePieRule) {
  std::mt19937_64 rng(2612);
  int openings_total = 0;
  for (int m = 1; m <= 4; ++m) {
    for (const Rules& r : test::all_variants(m)) {
      Solver solver(r, 1 << 20);
      for (int k = 0; k < 12; ++k) {
        const Position p = k < 3 ? Position{start_board(m, k + 1)} : random_position(rng, m, 4 * m);
        if (is_terminal(r, p.board)) continue;
        const std::string where = describe(r) + " " + format_relative(p, m);
        const PieAnalysis full = pie_rule(r, p, values_of(solver));
        const PieAnalysis quick = pie_value(r, p, [&](const Position& after) {
          return std::make_unique<SolverTests>(solver, after);
        });
        EXPECT_TRUE(quick.value_only);
        EXPECT_EQ(quick.value, full.value) << where;
        EXPECT_EQ(-std::abs(full.openings[quick.best].value), full.value) << where;
        ASSERT_EQ(quick.openings.size(), full.openings.size()) << where;
        for (size_t i = 0; i < full.openings.size(); ++i) {
          const PieOpening& o = quick.openings[i];
          EXPECT_EQ(o.turn, full.openings[i].turn) << where;
          EXPECT_LE(o.bounds.lower, full.openings[i].value) << where << " opening " << i;
          EXPECT_GE(o.bounds.upper, full.openings[i].value) << where << " opening " << i;
          if (o.exact()) {
            EXPECT_EQ(o.value, full.openings[i].value) << where;
          }
          // An opening left with bounds was shown to be no nearer a draw (after a draw, none
          // needs searching).
          if (!o.exact() && full.value < 0) {
            EXPECT_TRUE(o.bounds.lower >= -full.value || o.bounds.upper <= full.value)
                << where << " " << i;
          }
        }
        EXPECT_TRUE(quick.openings[quick.best].exact()) << where;
        openings_total += static_cast<int>(full.openings.size());
      }
    }
  }
  EXPECT_GT(openings_total, 500);
}

}  // namespace
}  // namespace kalah
