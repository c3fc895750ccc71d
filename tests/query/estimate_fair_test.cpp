// estimate_fair_test.cpp: two parts of the query layer against the oracle. Estimating
// (query/estimating.h): an estimate in final margins (stores counted), kept within what a search
// proved, exact where the heuristic solves the tree, and the thread that improves it. FairQuery
// (query/fair_query.h): run() finds exactly the fair starts the oracle finds, over a database
// as without, writes and refuses what it should, and stops when asked.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

#include "game/notation.h"
#include "query/estimating.h"
#include "query/fair_query.h"
#include "query/query.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

Query query_of(const Rules& r, const Position& p) {
  Query q;
  q.rules = r;
  q.position = p;
  q.threads = 1;
  return q;
}

TEST(Estimating, ASmallGameIsEstimatedExactlyInFinalMargins) {
  std::mt19937_64 rng(17);
  for (const Rules& r : test::all_variants(3)) {
    test::Oracle oracle(r);
    for (int i = 0; i < 6; ++i) {
      Position p;
      p.board = test::random_board(rng, 3, 3 + i);
      if (is_terminal(r, p.board)) continue;
      p.mover_store = 5;
      p.opponent_store = 2;
      const Estimate e = estimate_for(query_of(r, p), std::chrono::seconds(10));
      ASSERT_TRUE(e.exact) << describe(r);
      EXPECT_EQ(e.value, final_margin(p, oracle.value(p.board))) << describe(r);
      ASSERT_GE(e.pit, 0);
      EXPECT_GT(p.board.pits[e.pit], 0);
    }
  }
}

TEST(Estimating, AnEstimateIsKeptWithinWhatIsProven) {
  Estimate e;
  e.value = 9;
  e.moves = {{0, -7, false, {}}, {2, 4, false, {}}};
  SearchProgress proven;
  proven.margin = {-2, 5};
  proven.moves = {{0, {-3, 3}}, {2, {6, 8}}};
  const Estimate kept = within(e, proven);
  EXPECT_EQ(kept.value, 5);
  EXPECT_EQ(kept.moves[0].value, -3);
  EXPECT_EQ(kept.moves[1].value, 6);
  SearchProgress nothing;  // lower > upper: no bound yet
  nothing.margin = {1, 0};
  EXPECT_EQ(within(e, nothing).value, 9);
  Position p;
  p.mover_store = 4;
  p.opponent_store = 10;
  const Estimate shifted = in_margins(e, p);
  EXPECT_EQ(shifted.value, 3);
  EXPECT_EQ(shifted.moves[1].value, -2);
}

TEST(Estimating, TheThreadImprovesTheEstimateUntilItIsDestroyed) {
  Position p;
  p.board = start_board(6, 6);
  std::atomic<int> reports{0};
  std::optional<Estimate> last;
  {
    Query q = query_of(Rules{6}, p);
    q.ask = Ask::kAnalysis;  // every move's estimate
    Estimating estimating(q, std::chrono::milliseconds(100), [&](const Estimate&) { ++reports; });
    StopFlag never;
    estimating.wait_first(&never);
    last = estimating.latest();
  }
  const int after = reports;
  ASSERT_TRUE(last);
  EXPECT_GE(last->depth, 1);
  EXPECT_EQ(last->moves.size(), 6u);
  EXPECT_GE(after, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(reports, after) << "the estimate was improved after its Estimating ended";
}

// After its first slice the thread steps back: to nice 10, or, for an estimate nobody watches,
// to the cores nobody else wants (SCHED_IDLE). Each report reads the policy of the thread that
// made it; the second, after the slice, sees the lowered one.
TEST(Estimating, AfterItsSliceTheThreadYieldsAShareOrEverything) {
  Position p;
  p.board = start_board(6, 6);
  for (bool idle : {false, true}) {
    Query q = query_of(Rules{6}, p);
    q.estimate_when_idle = idle;
    std::atomic<int> policy{-1}, nice{-100};
    std::atomic<int> reports{0};
    {
      Estimating estimating(q, std::chrono::milliseconds(0), [&](const Estimate&) {
        policy = sched_getscheduler(0);
        nice = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
        ++reports;
      });
      for (int i = 0; i < 500 && reports < 2; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_GE(reports, 2) << "the estimate deepened once at most in 5 s";
    if (idle) {
      EXPECT_EQ(policy, SCHED_IDLE);
    } else {
      EXPECT_EQ(policy, SCHED_OTHER);
      EXPECT_EQ(nice, 10);
    }
  }
}

// The oracle's fair starts of Kalah(3,n) within `moved` seeds moved, South to move.
std::set<std::string> oracle_fair(const Rules& r, const std::vector<FairCandidate>& candidates) {
  test::Oracle oracle(r);
  std::set<std::string> fair;
  for (const FairCandidate& c : candidates)
    if (final_margin(c.position, oracle.value(c.position.board)) == 0)
      fair.insert(format_absolute(c.position, r.pits));
  return fair;
}

std::set<std::string> found_fair(const FairOutcome& o) {
  std::set<std::string> fair;
  for (const FairCandidate& c : o.candidates)
    if (c.fair()) fair.insert(format_absolute(c.position, o.rules.pits));
  return fair;
}

TEST(FairQuery, TheFairStartsAreTheOraclesWithAndWithoutADatabase) {
  test::TempDir dir;
  for (const Rules& r : {Rules{3}, Rules{3, Capture::kEmpty}}) {
    test::build(dir.str(), r, 8);
    const Database db(dir.str(), r);
    for (const int n : {2, 3}) {
      FairQuery q;
      q.rules = r;
      q.seeds = n;
      q.moved = 2;
      q.threads = 2;
      q.table_bytes = size_t{16} << 20;
      const FairOutcome alone = run(q);
      ASSERT_TRUE(alone.complete());
      const std::set<std::string> expected = oracle_fair(r, alone.candidates);
      EXPECT_EQ(found_fair(alone), expected) << describe(r) << " n=" << n;
      q.db = &db;
      q.exact = true;
      const FairOutcome exact = run(q);
      EXPECT_EQ(found_fair(exact), expected) << describe(r) << " n=" << n;
      for (const FairCandidate& c : exact.candidates) ASSERT_TRUE(c.margin.exact());
      const std::string json = outcome_json(exact).str();
      for (const std::string& start : expected)
        EXPECT_NE(json.find('"' + start + '"'), std::string::npos) << start << " " << json;
    }
  }
}

TEST(FairQuery, CertificatesAreWrittenAndBadQuestionsRefused) {
  test::TempDir dir;
  FairQuery q;
  q.rules = Rules{3};
  q.seeds = 2;
  q.moved = 1;
  q.threads = 1;
  q.table_bytes = size_t{16} << 20;
  q.certificate_dir = dir.str();
  const FairOutcome o = run(q);
  ASSERT_TRUE(o.certificates);
  EXPECT_EQ(o.certificates->size(), found_fair(o).size());
  for (const Certified& c : *o.certificates) EXPECT_GT(c.bytes, 0u) << c.file;
  FairQuery bad = q;
  bad.certificate_dir.clear();
  bad.moved = 4;
  EXPECT_THROW(run(bad), std::invalid_argument);
  bad.moved = 1;
  bad.seeds = 0;
  EXPECT_THROW(run(bad), std::invalid_argument);
  test::build(dir.str() + "/db", Rules{3, Capture::kEmpty}, 4);
  const Database other(dir.str() + "/db", Rules{3, Capture::kEmpty});
  bad = q;
  bad.certificate_dir.clear();
  bad.db = &other;  // another capture rule's database
  EXPECT_THROW(run(bad), std::invalid_argument);
}

TEST(FairQuery, AStopRaisedBeforeItStartsLeavesTheCandidatesUnsettled) {
  StopFlag stop;
  stop.raise();
  FairQuery q;
  q.rules = Rules{4};
  q.seeds = 3;
  q.threads = 1;
  q.table_bytes = size_t{16} << 20;
  q.stop = &stop;
  const FairOutcome o = run(q);
  EXPECT_FALSE(o.complete());
  EXPECT_EQ(o.stopped, StopReason::kStop);
  EXPECT_TRUE(found_fair(o).empty());
}

}  // namespace
}  // namespace kalah
