// game_record_test.cpp: records round-trip through text and replay to the positions played, in
// every variant; a record that cannot be played is refused with the turn and pit named.
#include "game/game_record.h"

#include <gtest/gtest.h>

#include <random>

#include "game/notation.h"

namespace kalah {
namespace {

TEST(GameRecord, RandomGamesRoundTripAndReplay) {
  std::mt19937_64 rng(31);
  for (const Rules& rules :
       {Rules{4}, Rules{6, Capture::kEmpty, End::kOnTurn, Remainder::kDiscard}}) {
    for (int game = 0; game < 50; ++game) {
      const Position start = start_position(rules.pits, 1 + game % 5);
      Position p = start;
      std::vector<Turn> turns;
      while (!is_terminal(rules, p.board)) {
        std::vector<int> legal;
        for (int pit = 0; pit < rules.pits; ++pit)
          if (p.board.pits[pit]) legal.push_back(pit);
        const int pit = legal[rng() % legal.size()];
        record_ply(turns, p.mover, pit);
        p = apply(rules, p, pit);
        // Every prefix replays to where the game is.
        const std::string text = format_record(turns);
        ASSERT_EQ(replay(rules, start, parse_record(text, rules.pits)), p) << text;
      }
      // Turns alternate sides: an extra turn stays in its turn.
      for (size_t t = 1; t < turns.size(); ++t) EXPECT_NE(turns[t].side, turns[t - 1].side);
    }
  }
}

TEST(GameRecord, ReadsUrlSeparatorsAndNothing) {
  const auto turns = parse_record(" S:3-6+N:2-1  S:4 ", 6);
  ASSERT_EQ(turns.size(), 3u);
  EXPECT_EQ(format_record(turns), "S:3-6 N:2-1 S:4");
  EXPECT_TRUE(parse_record("", 6).empty());
  EXPECT_TRUE(parse_record("  ", 6).empty());
}

TEST(GameRecord, RefusesWhatCannotBePlayed) {
  const Rules rules{6};
  const Position start = start_position(6, 4);
  auto error = [&](const std::string& text) {
    try {
      replay(rules, start, parse_record(text, 6));
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error("N:3"), "game record, turn 1 (N:3), pit 3: South is to move, not North");
  // Pit 3 of Kalah(6,4) ends in the store: South moves again, so North's turn comes too early.
  EXPECT_EQ(error("S:3 N:1"), "game record, turn 2 (N:1), pit 1: South is to move, not North");
  EXPECT_EQ(error("S:3-3"), "game record, turn 1 (S:3-3), pit 3: the pit is empty");
  EXPECT_EQ(error("S:3-6 N:1"), "accepted");
  // Pit 1 sows into pit 5: the turn ends there, so its pit 2 is not South's to play.
  EXPECT_EQ(error("S:1-2"), "game record, turn 1 (S:1-2), pit 2: pit 1 ended the turn");
  for (const char* bad : {"3-6", "S3", "S:", "X:1", "S:0", "S:7", "S:1--2", "s:1"})
    EXPECT_NE(error(bad).find("is not"), std::string::npos) << bad << ": " << error(bad);
  EXPECT_THROW(parse_record(std::string(kMaxRecordLength + 1, ' '), 6), std::invalid_argument);
}

TEST(GameRecord, RefusesMovesAfterTheEnd) {
  const Rules rules{1};
  const Position start = start_position(1, 1);  // South sows into the store: the game is over
  EXPECT_EQ(replay(rules, start, parse_record("S:1", 1)).board.pits[0], 0);
  EXPECT_THROW(replay(rules, start, parse_record("S:1 N:1", 1)), std::invalid_argument);
}

}  // namespace
}  // namespace kalah
