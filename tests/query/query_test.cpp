// query_test.cpp: the one query path (query/query.h) against the oracle in every variant: each
// thing a front end can ask (a full analysis, the value, the pie rule, its value, a move), on 1
// and 2 threads, with and without a database; where each answer comes from (database, answer
// store, search); a stop, a deadline and questions that cannot be asked.
#include "query/query.h"

#include <gtest/gtest.h>

#include <random>

#include "game/notation.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

Position random_position(std::mt19937_64& rng, int m, int low, int high) {
  Position p;
  p.board = test::random_board(rng, m, low + static_cast<int>(rng() % (high - low + 1)));
  p.mover_store = static_cast<int>(rng() % 5);
  p.opponent_store = static_cast<int>(rng() % 5);
  return p;
}

Query query_of(const Rules& r, const Position& p, Ask ask, int threads,
               const Database* db = nullptr) {
  Query q;
  q.rules = r;
  q.position = p;
  q.ask = ask;
  q.threads = threads;
  q.db = db;
  q.table_mb = 1;
  return q;
}

// Every answer about p agrees with the oracle's values.
void expect_oracle(const Rules& r, const Position& p, test::Oracle& oracle, int threads,
                   const Database* db, const std::string& where) {
  const int value = final_margin(p, oracle.value(p.board));
  const auto margin_after = [&](const Position& next) {
    const int v = final_margin(next, oracle.value(next.board));
    return next.mover == p.mover ? v : -v;
  };
  const Outcome full = run(query_of(r, p, Ask::kAnalysis, threads, db));
  ASSERT_TRUE(full.complete()) << where;
  EXPECT_EQ(full.margin.lower, value) << where;
  ASSERT_TRUE(full.analysis) << where;
  for (const MoveReport& mv : full.analysis->moves)
    EXPECT_EQ(mv.value, margin_after(apply(r, p, mv.pit))) << where << " pit " << mv.pit + 1;

  const Outcome alone = run(query_of(r, p, Ask::kValue, threads, db));
  EXPECT_EQ(alone.margin.lower, value) << where;
  EXPECT_EQ(alone.margin.upper, value) << where;

  Query asked = query_of(r, p, Ask::kMove, threads, db);
  asked.deadline = Query::Clock::now() + std::chrono::seconds(30);
  const Outcome move = run(asked);
  ASSERT_TRUE(move.move) << where;
  if (is_terminal(r, p.board)) return;
  ASSERT_TRUE(move.move->proven) << where;  // small positions: proven at once
  EXPECT_EQ(margin_after(apply(r, p, move.move->pit)), value) << where << " the move";

  // Under the pie rule an opening worth w is worth -|w|; the best is the largest.
  int best = -1000;
  for (const Opening& o : openings(r, p)) best = std::max(best, -std::abs(margin_after(o.after)));
  const Outcome pie = run(query_of(r, p, Ask::kPie, threads, db));
  ASSERT_TRUE(pie.pie) << where;
  EXPECT_EQ(pie.pie->value, best) << where;
  for (size_t k = 0; k < pie.pie->openings.size(); ++k)
    EXPECT_EQ(pie.pie->openings[k].value, margin_after(openings(r, p)[k].after)) << where;
  const Outcome pie_value = run(query_of(r, p, Ask::kPieValue, threads, db));
  ASSERT_TRUE(pie_value.pie) << where;
  EXPECT_EQ(pie_value.pie->value, best) << where;
  EXPECT_EQ(pie_value.margin.lower, best) << where;
}

TEST(Query, EveryAskAgreesWithTheOracleInEveryVariant) {
  std::mt19937_64 rng(4040);
  for (int m : {3, 4}) {
    for (const Rules& r : test::all_variants(m)) {
      test::Oracle oracle(r);
      for (int i = 0; i < 6; ++i) {
        const Position p = random_position(rng, m, 1, 3 * m + 2);
        for (int threads : {1, 2})
          expect_oracle(
              r, p, oracle, threads, nullptr,
              describe(r) + " " + format_relative(p, m) + " threads " + std::to_string(threads));
      }
    }
  }
}

// Over a database (m = 4, layers 1..8): positions it holds are answered from it, the others by a
// search that ends at it; both as the oracle says.
TEST(Query, OverADatabaseEveryAskAgreesWithTheOracle) {
  std::mt19937_64 rng(4041);
  for (const Rules& r : test::all_variants(4)) {
    test::TempDir dir;
    test::build(dir.str(), r, 8);
    const Database db(dir.str(), r);
    test::Oracle oracle(r);
    for (int i = 0; i < 4; ++i) {
      const Position p = random_position(rng, 4, i % 2 ? 3 : 9, i % 2 ? 8 : 13);
      const std::string where = describe(r) + " " + format_relative(p, 4);
      expect_oracle(r, p, oracle, 2, &db, where);
      const Outcome o = run(query_of(r, p, Ask::kValue, 2, &db));
      const bool held = seeds(p.board) <= db.max_seeds();
      EXPECT_EQ(o.source, held ? Source::kDatabase : Source::kSearch) << where;
      EXPECT_EQ(o.analysis.has_value(), held) << where << ": the database's answer is whole";
    }
  }
}

// A full analysis searched once is answered from the answer store afterwards, also when only the
// value is asked; the store is read and written only with a database.
TEST(Query, TheAnswerStoreAnswersWhatWasSearched) {
  const Rules r{4, Capture::kEmpty};
  test::TempDir dir;
  test::build(dir.str(), r, 8);
  const Database db(dir.str(), r);
  AnswerStore store(dir.str(), r);  // whatever KALAH_STORE says: this test is about the store
  Query q = query_of(r, start_position(4, 3), Ask::kAnalysis, 0, &db);
  q.store = &store;
  const Outcome searched = run(q);
  EXPECT_EQ(searched.source, Source::kSearch);
  const Outcome stored = run(q);
  EXPECT_EQ(stored.source, Source::kStore);
  EXPECT_EQ(stored.analysis->best_line, searched.analysis->best_line);
  q.ask = Ask::kValue;
  const Outcome value = run(q);
  EXPECT_EQ(value.source, Source::kStore);
  EXPECT_EQ(value.margin.lower, searched.margin.lower);
  EXPECT_NE(outcome_json("solve", value).str().find("\"source\": \"store\""), std::string::npos);
}

// A stop or a deadline ends a search with the bounds it proved, saying why; a move is always
// given, the heuristic's when nothing is proven in time.
TEST(Query, StopsAndDeadlinesReturnTheBoundsAndWhy) {
  const Rules r{6};
  const Position p = start_position(6, 6);
  StopFlag stop;
  stop.raise();
  Query q = query_of(r, p, Ask::kAnalysis, 0);
  q.stop = &stop;
  const Outcome stopped = run(q);
  EXPECT_EQ(stopped.stopped, StopReason::kStop);
  EXPECT_LE(stopped.margin.lower, stopped.margin.upper);
  EXPECT_FALSE(stopped.analysis);
  EXPECT_NE(outcome_json("solve", stopped).str().find("\"stopped\": \"stop\""), std::string::npos);

  q.stop = nullptr;
  q.ask = Ask::kValue;
  q.deadline = Query::Clock::now() + std::chrono::milliseconds(100);
  const Outcome late = run(q);
  EXPECT_EQ(late.stopped, StopReason::kDeadline);
  EXPECT_LT(late.seconds, 5);

  q.ask = Ask::kMove;
  const Outcome move = run(q);
  ASSERT_TRUE(move.move);
  EXPECT_GT(p.board.pits[move.move->pit], 0);
  EXPECT_EQ(move.move->source, Source::kHeuristic);
  EXPECT_FALSE(move.move->proven);
}

TEST(Query, WhatCannotBeAskedIsInvalidArgument) {
  const Rules r{4};
  test::TempDir dir;
  test::build(dir.str(), r, 4);
  const Database db(dir.str(), r);
  Query q = query_of(Rules{4, Capture::kEmpty}, start_position(4, 3), Ask::kAnalysis, 0, &db);
  EXPECT_THROW(run(q), std::invalid_argument);  // not the database's rules
  q = query_of(r, start_position(4, 3), Ask::kPie, 0);
  q.certificate = dir.str("pie.cert");
  EXPECT_THROW(run(q), std::invalid_argument);
  Position over;
  over.board.pits[4] = 3;  // the mover's row is empty
  EXPECT_THROW(run(query_of(r, over, Ask::kPieValue, 0)), std::invalid_argument);
}

}  // namespace
}  // namespace kalah
