// api_test.cpp: the library's API (include/kalah/kalah.h) against the oracle and its promises.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <random>
#include <stdexcept>
#include <thread>

#include "game/notation.h"
#include "kalah/kalah.h"
#include "solver/openings.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

class Api : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<test::TempDir>();
    test::build(dir_->str(), kRules, kTop);
  }
  static void TearDownTestSuite() { dir_.reset(); }
  static constexpr Rules kRules{4, Capture::kEmpty, End::kImmediate, Remainder::kOwner};
  static constexpr int kTop = 8;
  static inline std::unique_ptr<test::TempDir> dir_;
};

const api::Rules kEmpty{0, "empty", "immediate", "owner"};

// The pit count comes from the files; probes equal the oracle's values, stores included; a
// position above the top layer is no probe but is analysed by search.
TEST_F(Api, DatabaseProbesAndAnalysesAsTheOracleSays) {
  const api::Database db(dir_->str(), kEmpty);
  EXPECT_EQ(db.rules().pits, 4);
  EXPECT_EQ(db.max_seeds(), kTop);
  test::Oracle oracle(kRules);
  for (const char* text : {"1,0,2,0/0,1,1,0/3,4", "0,2,0,1/1,0,0,3/0,1", "2,1,0,0/0,0,1,3/5,2"}) {
    const Position p = parse_position(text, 4).position;
    const int want = oracle.value(p.board) + p.mover_store - p.opponent_store;
    EXPECT_EQ(db.probe(text), want) << text;
    const api::Analysis a = db.analyse(text);
    EXPECT_EQ(a.value, want) << text;
    EXPECT_EQ(a.source, "database");
  }
  const char* above = "3,3,3,0/0,3,3,3/0,0";  // 18 seeds
  EXPECT_FALSE(db.probe(above).has_value());
  const api::Analysis searched = db.analyse(above);
  EXPECT_EQ(searched.source, "search");
  EXPECT_EQ(searched.value, oracle.value(parse_position(above, 4).position.board));
}

// Bad input is std::invalid_argument with the command line's message.
TEST_F(Api, BadInputIsInvalidArgumentNamingTheProblem) {
  EXPECT_THROW(api::Database(dir_->str("missing"), kEmpty), std::invalid_argument);
  EXPECT_THROW(api::Database(dir_->str(), {0, "standard", "immediate", "owner"}),
               std::invalid_argument);
  const api::Database db(dir_->str(), kEmpty);
  EXPECT_THROW(db.probe("1,2,3/4,5,6"), std::invalid_argument);  // 3 pits, not 4
  EXPECT_THROW(api::analyse({4, "empty", "immediate", "owner"}, "1,1,x,1/1,1,1,1", nullptr),
               std::invalid_argument);
  EXPECT_THROW(api::analyse({4, "sideways", "immediate", "owner"}, "1,1,1,1/1,1,1,1", nullptr),
               std::invalid_argument);
  try {
    api::solve({4, "standard", "immediate", "owner"}, 0);
    ADD_FAILURE() << "zero seeds accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("seeds must be 1.."), std::string::npos) << e.what();
  }
}

// The published Kalah(4,3) value, by search alone and with the database's rules refused when they
// differ.
TEST_F(Api, SolveGivesThePublishedValue) {
  const api::Analysis a = api::solve({4, "standard", "immediate", "owner"}, 3);
  EXPECT_EQ(a.value, 6);
  EXPECT_EQ(a.source, "search");
  EXPECT_NE(a.json.find("\"command\": \"solve\""), std::string::npos) << a.json;
  const api::Database db(dir_->str(), kEmpty);
  EXPECT_THROW(api::solve({4, "standard", "immediate", "owner"}, 3, &db), std::invalid_argument);
}

// A stop flag ends a long search soon after it is set, as a timeout does: with the bounds
// proven, and why it stopped (the one stop rule of the public API).
TEST_F(Api, AStopFlagEndsASearchWithTheBoundsProven) {
  std::atomic<bool> stop{false};
  auto later = std::async(std::launch::async, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
  });
  const auto t0 = std::chrono::steady_clock::now();
  const api::Analysis a = api::solve({6, "standard", "immediate", "owner"}, 6, nullptr, &stop);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  EXPECT_FALSE(a.exact) << "Kalah(6,6) solved in no time";
  EXPECT_EQ(a.stopped, "stop");
  EXPECT_EQ(a.source, "bounds");
  EXPECT_LE(a.lower, a.upper);
  EXPECT_NE(a.json.find("\"stopped\": \"stop\""), std::string::npos) << a.json;
}

// Options: the value alone, the pie rule and any thread count give the full analysis's values
// (the oracle's, on random positions of every variant); a timeout returns bounds, not an
// exception, and they hold the value.
TEST_F(Api, OptionsAgreeWithTheOracle) {
  std::mt19937_64 rng(27);
  for (const Rules& r : test::all_variants(3)) {
    const api::Rules rules{3, to_string(r.capture), to_string(r.end), to_string(r.remainder)};
    test::Oracle oracle(r);
    for (int i = 0; i < 5; ++i) {
      Position p;
      p.board = test::random_board(rng, 3, 1 + static_cast<int>(rng() % 10));
      p.mover_store = static_cast<int>(rng() % 5);
      const std::string text = format_relative(p, 3);
      const int expected = final_margin(p, oracle.value(p.board));
      for (int threads : {1, 2, 8}) {
        const api::Analysis full =
            api::analyse(rules, text, nullptr, nullptr, {.threads = threads});
        EXPECT_EQ(full.value, expected) << text;
        EXPECT_TRUE(full.exact);
        EXPECT_EQ(full.lower, expected);
        const api::Analysis value = api::analyse(rules, text, nullptr, nullptr,
                                                 {.threads = threads, .ask = api::Question::value});
        EXPECT_EQ(value.value, expected) << text;
        EXPECT_TRUE(value.moves.empty());
      }
      if (is_terminal(r, p.board)) continue;
      // Under the pie rule an opening worth w (the oracle's) is worth -|w|; the best is the
      // largest.
      const std::vector<Opening> first = openings(r, p);
      for (int threads : {1, 2}) {
        const api::Analysis pie = api::analyse(rules, text, nullptr, nullptr,
                                               {.threads = threads, .ask = api::Question::pie});
        ASSERT_EQ(pie.openings.size(), first.size()) << text;
        int best = -1000;
        for (size_t k = 0; k < first.size(); ++k) {
          const api::Opening& o = pie.openings[k];
          const Position& after = first[k].after;
          const int margin = final_margin(after, oracle.value(after.board));
          EXPECT_EQ(o.value, after.mover == p.mover ? margin : -margin) << text << " " << o.turn;
          EXPECT_EQ(o.swapped, o.value > 0);
          best = std::max(best, -std::abs(o.value));
        }
        EXPECT_EQ(pie.value, best) << text;
        EXPECT_FALSE(pie.best_opening.empty());
      }
    }
  }
  const api::Rules big{6, "standard", "immediate", "owner"};
  for (const api::Question ask : {api::Question::analysis, api::Question::value}) {
    const api::Analysis a = api::solve(big, 6, nullptr, nullptr, {.ask = ask, .timeout = 0.2});
    EXPECT_FALSE(a.exact);
    EXPECT_EQ(a.stopped, "deadline");
    EXPECT_EQ(a.source, "bounds");
    EXPECT_LE(a.lower, a.upper);
    EXPECT_NE(a.json.find("\"interrupted\": true"), std::string::npos) << a.json;
    ASSERT_TRUE(a.estimate.has_value());  // a timeout runs the heuristic beside the proof
    ASSERT_FALSE(a.estimate_line.empty());
    EXPECT_EQ(a.estimate_line[0].substr(2, 1), a.json.substr(a.json.find("\"best\": ") + 8, 1));
  }
  EXPECT_THROW(api::solve(big, 4, nullptr, nullptr, {.timeout = -1}), std::invalid_argument);
  EXPECT_THROW(api::solve(big, 4, nullptr, nullptr, {.threads = -1}), std::invalid_argument);
}

// Position plays as the solver's rules: the moves of an analysis lead where play() does, the
// end of a game and its score are the finished position's value.
TEST_F(Api, PositionPlaysAsTheAnalysisSays) {
  std::mt19937 rng(28);
  for (const Rules& r : test::all_variants(4)) {
    const api::Rules rules{4, to_string(r.capture), to_string(r.end), to_string(r.remainder)};
    api::Position p = api::Position::start(rules, 2);
    EXPECT_EQ(p.str(), "2,2,2,2/2,2,2,2/0,0");
    while (true) {
      const api::Analysis a = api::analyse(rules, p.absolute());
      EXPECT_EQ(p.is_over(), a.finished);
      std::vector<int> pits;
      for (const api::Move& m : a.moves) {
        pits.push_back(m.pit);
        EXPECT_EQ(p.play(m.pit).absolute(), m.absolute);
      }
      EXPECT_EQ(p.legal_moves(), pits);
      EXPECT_EQ(api::Position::parse(p.absolute(), rules), p);
      if (p.is_over()) {
        EXPECT_EQ(p.score(), a.value);
        EXPECT_THROW(p.play(1), std::invalid_argument);
        break;
      }
      EXPECT_THROW(p.play(5), std::invalid_argument);
      p = p.play(pits[rng() % pits.size()]);
    }
  }
  // Probing a Position is probing its text; another variant's position is refused.
  const api::Database db(dir_->str(), kEmpty);
  const api::Rules empty4{4, "empty", "immediate", "owner"};
  for (const char* text : {"1,0,2,0/0,1,1,0/3,4", "0,2,0,1/1,0,0,3/0,1", "2,1,0,0/0,0,1,3/5,2"}) {
    EXPECT_EQ(db.probe(api::Position::parse(text, empty4)), db.probe(text)) << text;
    const api::Analysis a = db.analyse(text, nullptr, {.ask = api::Question::value});
    EXPECT_EQ(a.value, *db.probe(text)) << text;
    EXPECT_EQ(a.source, "database");
  }
  EXPECT_THROW(db.probe(api::Position::parse("1,0,2,0/0,1,1,0/3,4", {4})), std::invalid_argument);
}

}  // namespace
}  // namespace kalah
