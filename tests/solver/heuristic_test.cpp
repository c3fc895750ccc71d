// heuristic_test.cpp: the time-bounded move search. Deepened to every game end it is exact (the
// oracle's value, and a move worth it); stopped early it still gives a legal move at once.
#include "solver/heuristic.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>
#include <tuple>

#include "db/rank.h"
#include "game/any_board.h"
#include "game/notation.h"
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
      const Estimate h = heuristic_search(rules, b, {});
      ASSERT_TRUE(h.exact);
      const int v = oracle.value(b);
      EXPECT_EQ(h.value, v);
      ASSERT_GE(h.pit, 0);
      ASSERT_GT(b.pits[h.pit], 0);
      const MoveResult r = play(rules, b, h.pit);
      EXPECT_EQ(move_value(r, solver.value(r.board)), v);
    }
  }
}

std::string text(const Line& line) {
  std::string out;
  for (const std::string& turn : format_turns(line, Side::kSouth)) out += turn + " ";
  return out;
}

// A line played from b: what it gains for b's mover, the board it reaches, the plies
// played and the sign of that board's mover for b's.
struct PlayedLine {
  Board at;
  int gained = 0, sign = 1, plies = 0;
};
PlayedLine play_line(const Rules& rules, const Board& b, const Line& line) {
  PlayedLine out{b};
  for (const std::vector<int>& turn : line)
    for (size_t i = 0; i < turn.size(); ++i) {
      EXPECT_GT(out.at.pits[turn[i]], 0) << format_turn(turn);
      const MoveResult r = play(rules, out.at, turn[i]);
      out.gained += out.sign * r.gain;
      // An extra turn may end the game, or the line where its search's depth ran out.
      const bool last = i + 1 == turn.size();
      EXPECT_TRUE(last ? !r.extra_turn || is_terminal(rules, r.board) || &turn == &line.back()
                       : r.extra_turn)
          << format_turn(turn);
      if (!r.extra_turn) out.sign = -out.sign;
      out.at = r.board;
      ++out.plies;
    }
  return out;
}

// A solved search's lines are its principal variations: each move's line, played to the end,
// gains exactly the move's value, and the best line is the best move's.
TEST(Heuristic, EachMovesLineIsPlayedOutToItsValue) {
  for (const Rules& rules : test::all_variants(3)) {
    for (const Board& b : {start_position(3, 3).board, start_position(3, 2).board}) {
      const Estimate h = heuristic_search(rules, b, {.every_move = true});
      ASSERT_TRUE(h.exact);
      for (const MoveEstimate& m : h.moves) {
        ASSERT_FALSE(m.line.empty());
        EXPECT_EQ(m.line[0][0], m.pit);
        const PlayedLine p = play_line(rules, b, m.line);
        EXPECT_TRUE(is_terminal(rules, p.at)) << describe(rules);
        EXPECT_EQ(p.gained + p.sign * terminal_value(rules, p.at), m.value) << describe(rules);
      }
      ASSERT_GE(h.pit, 0);
      for (const MoveEstimate& m : h.moves)
        if (m.pit == h.pit) {
          EXPECT_EQ(h.line, m.line);
        }
    }
  }
}

// Unsolved, each move's line is as deep as the iteration and gains exactly the move's estimate
// (the rest of the board counts 0), even with a table too small to keep a line: the lines are
// the ones the values were searched along, not read back from the table.
TEST(Heuristic, AnUnsolvedLineIsAsDeepAsItsSearch) {
  const Rules rules{6};
  const Board b = start_position(6, 4).board;
  for (const size_t table_bytes : {size_t{1} << 10, size_t{16} << 20}) {
    const Estimate h = heuristic_search(
        rules, b, {.max_depth = 9, .table_bytes = table_bytes, .every_move = true});
    ASSERT_EQ(h.depth, 9);
    ASSERT_FALSE(h.exact);
    for (const MoveEstimate& m : h.moves) {
      const PlayedLine p = play_line(rules, b, m.line);
      EXPECT_EQ(p.plies, 9) << text(m.line);
      EXPECT_EQ(p.gained, m.value) << text(m.line);
    }
  }
}

TEST(Heuristic, StoppedItStillMovesLegally) {
  const Rules rules{6};
  const Board b = start_position(6, 6).board;
  StopFlag stopped;
  stopped.raise();
  const Estimate first = heuristic_search(rules, b, {.stop = &stopped});
  EXPECT_GE(first.depth, 1);
  EXPECT_LE(first.nodes, 8192u);  // the stop is seen within a few thousand nodes
  EXPECT_FALSE(first.exact);
  EXPECT_GT(b.pits[first.pit], 0);

  StopFlag stop;
  std::thread timer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop.raise();
  });
  const Estimate deeper = heuristic_search(rules, b, {.stop = &stop});
  timer.join();
  EXPECT_GE(deeper.depth, 4);
  EXPECT_FALSE(deeper.exact);
  EXPECT_GT(b.pits[deeper.pit], 0);
}

AnyBoard any(const Board& b, int m) {
  return AnyBoard{std::vector<int>(b.pits.begin(), b.pits.begin() + 2 * m)};
}

// AnyBoard's plain sowing against play() on every variant and pit counts 1..8, laps included.
TEST(AnyBoard, SowsAsPlayDoes) {
  std::mt19937_64 rng(17);
  for (int m = 1; m <= kMaxPits; ++m)
    for (const Rules& rules : test::all_variants(m))
      for (int i = 0; i < 300; ++i) {
        Board b;
        for (int k = 0; k < 2 * m; ++k) b.pits[k] = rng() % (i % 3 == 0 ? 30 : 5);
        EXPECT_EQ(is_terminal(rules, any(b, m)), is_terminal(rules, b));
        EXPECT_EQ(terminal_value(rules, any(b, m)), terminal_value(rules, b));
        for (int pit = 0; pit < m; ++pit) {
          if (!b.pits[pit]) continue;
          const MoveResult r = play(rules, b, pit);
          const AnyMove a = play(rules, any(b, m), pit);
          ASSERT_EQ(a.board.pits, any(r.board, m).pits) << describe(rules) << " pit " << pit;
          ASSERT_EQ(a.gain, r.gain);
          ASSERT_EQ(a.extra_turn, r.extra_turn);
        }
      }
}

TEST(Heuristic, AnyBoardSearchesAsBoardDoes) {
  for (auto [m, n, depth] : {std::tuple{4, 3, 1}, {4, 3, 3}, {4, 3, 8}, {3, 2, 200}}) {
    const Rules rules{m};
    const Board b = start_position(m, n).board;
    const Estimate x = heuristic_search(rules, b, {.max_depth = depth});
    const Estimate y = heuristic_search(rules, any(b, m), {.max_depth = depth});
    EXPECT_EQ(x.pit, y.pit);
    EXPECT_EQ(x.value, y.value);
    EXPECT_EQ(x.exact, y.exact);
    EXPECT_EQ(x.nodes, y.nodes);
    EXPECT_EQ(x.exact, depth == 200);
  }
  // Eleven pits a row, as KGP servers send: beyond Board, still a legal move at once.
  StopFlag stopped;
  stopped.raise();
  const AnyBoard big{std::vector<int>(22, 21)};
  const Estimate h = heuristic_search(Rules{}, big, {.stop = &stopped});
  EXPECT_GE(h.pit, 0);
  EXPECT_LT(h.pit, 11);
}

TEST(Heuristic, AFinishedGameHasNoMove) {
  const Rules rules{3};
  const Estimate h = heuristic_search(rules, parse_position("0,0,0/1,2,0/5,3").position.board, {});
  EXPECT_EQ(h.pit, -1);
  EXPECT_TRUE(h.exact);
  EXPECT_EQ(h.value, -3);
}

}  // namespace
}  // namespace kalah
