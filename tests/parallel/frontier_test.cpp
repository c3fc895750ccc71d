// frontier_test.cpp: the search spread over processes (parallel/frontier_search.h), its processes
// simulated in this one (LocalTransport): the same values as one solver for any number of
// processes and slots, with and without a database; bounds kept across a restart and saved while
// a long test runs.
// tests/mpi/mpi_test.sh runs it over MPI.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>

#include "db/database.h"
#include "parallel/frontier_analysis.h"
#include "parallel/slot_pool.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

// A frontier of a few leaves a slot, so that small positions leave work to the slots.
constexpr FrontierOptions kSmallFrontier{.leaves_per_slot = 4, .max_depth = 12};

struct Case {
  Position position;
  std::string where;
};

// Random positions with s seeds in [low, high], stores included.
std::vector<Case> random_cases(std::mt19937_64& rng, const Rules& r, int count, int low, int high) {
  std::vector<Case> cases;
  for (int i = 0; i < count; ++i) {
    Case c;
    const int s = low + static_cast<int>(rng() % (high - low + 1));
    c.position.board = test::random_board(rng, r.pits, s);
    c.position.mover_store = static_cast<int>(rng() % 4);
    c.where = describe(r) + " m=" + std::to_string(r.pits) + " board " + std::to_string(s) +
              " seeds #" + std::to_string(i);
    cases.push_back(c);
  }
  return cases;
}

// Value and full analysis over P = 1, 2, 3 simulated processes of 1 or 2 slots equal one
// solver's, move by move; adds the jobs the slots ran to `jobs`.
void expect_same(const Rules& r, const Case& c, const LeafValues* leaves, uint64_t& jobs) {
  Solver solver(r, size_t{8} << 20, leaves);
  const Analysis expected = analyse(solver, c.position);
  for (int processes : {1, 2, 3})
    for (int slots : {1, 2}) {
      const std::string where =
          c.where + ", P=" + std::to_string(processes) + " slots=" + std::to_string(slots);
      LocalTransport transport(r, leaves, processes, slots, size_t{4} << 20, nullptr);
      FrontierStats stats;
      const SearchSetup setup{.rules = r, .leaves = leaves};
      const SearchResult v = value_frontier(setup, c.position, transport, kSmallFrontier, &stats);
      EXPECT_TRUE(v.complete()) << where;
      EXPECT_EQ(v.margin.lower, expected.value) << where;
      EXPECT_EQ(v.margin.upper, expected.value) << where;
      if (!expected.finished) {
        ASSERT_GE(v.best_pit, 0) << where;
        const MoveResult m = play(r, c.position.board, v.best_pit);
        EXPECT_EQ(final_margin(c.position, move_value(m, solver.value(m.board))), v.margin.lower)
            << where;
      }
      jobs += stats.jobs;
      const SearchResult a = analyse_frontier(setup, c.position, transport, kSmallFrontier, &stats);
      EXPECT_TRUE(a.complete()) << where;
      EXPECT_EQ(a.analysis.value, expected.value) << where;
      ASSERT_EQ(a.analysis.moves.size(), expected.moves.size()) << where;
      for (size_t i = 0; i < expected.moves.size(); ++i) {
        EXPECT_EQ(a.analysis.moves[i].value, expected.moves[i].value) << where << " move " << i;
        EXPECT_EQ(a.analysis.moves[i].turn, expected.moves[i].turn) << where << " move " << i;
      }
      EXPECT_EQ(a.analysis.best_line, expected.best_line) << where;
      jobs += stats.jobs;
    }
}

// Every variant, m = 3..5, no database: the slots' work decides (the small ones also against
// the oracle, the reference the solver itself is held to).
TEST(Frontier, EqualsOneSolverInEveryVariant) {
  std::mt19937_64 rng(28);
  uint64_t jobs = 0;
  for (int m = 3; m <= 5; ++m) {
    for (const Rules& r : test::all_variants(m)) {
      test::Oracle oracle(r);
      for (const Case& c : random_cases(rng, r, 2, 2 * m, 3 * m + 2)) {
        expect_same(r, c, nullptr, jobs);
        if (seeds(c.position.board) <= 12) {
          EXPECT_EQ(Solver(r).value(c.position.board), oracle.value(c.position.board)) << c.where;
        }
      }
    }
  }
  EXPECT_GT(jobs, 1000u);  // the positions were not all settled by the manager alone
}

// With a database at the leaves (m = 4, layers 1..10), and finished positions.
TEST(Frontier, EqualsOneSolverWithADatabase) {
  std::mt19937_64 rng(29);
  uint64_t jobs = 0;
  for (const Rules& r : {Rules{4, Capture::kEmpty},
                         Rules{4, Capture::kStandard, End::kOnTurn, Remainder::kDiscard}}) {
    const test::TempDir dir;
    test::build(dir.str(), r, 10);
    const Database db(dir.str(), r);
    for (const Case& c : random_cases(rng, r, 4, 14, 22)) expect_same(r, c, &db, jobs);
    Case over;
    over.position.board.pits[r.pits] = 3;  // the mover's row is empty
    over.where = "a finished position";
    expect_same(r, over, &db, jobs);
  }
  EXPECT_GT(jobs, 100u);
}

// A search stopped midway saves the bounds proven on its DAG (a checkpoint); one resumed from
// them finds the same value and a move worth it, in fewer nodes than a fresh search.
TEST(Frontier, StoppedMidwayAndResumedFindsTheSameValueInFewerNodes) {
  const Rules r{5, Capture::kEmpty};
  const Position p{start_board(5, 3)};
  const auto transport = [&](const StopFlag* stop) {
    return std::make_unique<LocalTransport>(r, nullptr, 2, 1, size_t{16} << 20, stop);
  };
  SearchSetup setup{.rules = r};
  int tests = 0;
  setup.progress = [&](const SearchProgress&) { ++tests; };
  const SearchResult fresh = value_frontier(setup, p, *transport(nullptr), kSmallFrontier);
  ASSERT_TRUE(fresh.complete());
  ASSERT_GE(tests, 4) << "too few tests to stop midway: make it bigger";

  StopFlag stop;
  SearchState saved;
  Checkpointing c;
  c.seconds = 1e6;  // saved when it starts and when it ends
  c.save = [&](const SearchState& s) { saved = s; };
  setup.stop = &stop;
  setup.checkpoint = &c;
  int done = 0;
  setup.progress = [&](const SearchProgress&) {
    if (++done == tests / 2) stop.raise();
  };
  const SearchResult first = value_frontier(setup, p, *transport(&stop), kSmallFrontier);
  ASSERT_FALSE(first.complete());
  EXPECT_EQ(first.stopped, StopReason::kStop);
  EXPECT_LE(first.margin.lower, fresh.margin.lower);
  EXPECT_GE(first.margin.upper, fresh.margin.lower);
  EXPECT_EQ(saved.nodes, first.nodes);
  ASSERT_FALSE(saved.entries.empty());

  setup.stop = nullptr;
  setup.progress = {};
  c.resume = &saved;
  const SearchResult resumed = value_frontier(setup, p, *transport(nullptr), kSmallFrontier);
  ASSERT_TRUE(resumed.complete());
  EXPECT_EQ(resumed.margin.lower, fresh.margin.lower);
  EXPECT_EQ(resumed.margin.upper, fresh.margin.upper);
  EXPECT_EQ(resumed.earlier_nodes, first.nodes);
  EXPECT_LT(resumed.nodes, fresh.nodes);
  ASSERT_GE(resumed.best_pit, 0);
  const MoveResult m = play(r, p.board, resumed.best_pit);
  EXPECT_EQ(move_value(m, Solver(r).value(m.board)), fresh.margin.lower);
  EXPECT_EQ(fresh.margin.lower, Solver(r).value(p.board));

  // Stopped again at once, before its DAG holds the boards it resumed with: its checkpoint
  // still keeps every bound (a second kill right after a resume loses nothing).
  StopFlag at_once;
  at_once.raise();
  SearchState again;
  c.save = [&](const SearchState& s) { again = s; };
  setup.stop = &at_once;
  value_frontier(setup, p, *transport(&at_once), kSmallFrontier);
  EXPECT_GE(again.entries.size(), saved.entries.size());
  EXPECT_EQ(again.nodes, saved.nodes);
}

// A test that runs for long saves checkpoints and reports progress while it runs, and its jobs
// answer within the options' longest also when no slot idles (their nodes reported, their
// bounds saved): Kalah(6,6) without a database on one slot, stopped after 2.5 s, inside its first
// test.
TEST(Frontier, ALongTestSavesAndReportsWhileItRuns) {
  const Rules r{6, Capture::kEmpty};
  const Position p{start_board(6, 6)};
  StopFlag stop;
  LocalTransport transport(r, nullptr, 1, 1, size_t{16} << 20, &stop);
  int saves = 0, reports = 0;
  uint64_t reported = 0, saved = 0;
  Checkpointing c;
  c.seconds = 0.25;
  c.save = [&](const SearchState& s) { ++saves, saved = std::max(saved, s.nodes); };
  SearchSetup setup{.rules = r, .stop = &stop, .checkpoint = &c};
  setup.progress = [&](const SearchProgress& p) { ++reports, reported = p.nodes; };
  FrontierOptions options = kSmallFrontier;
  options.longest_job_seconds = 0.5;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    stop.raise();
  });
  const SearchResult v = value_frontier(setup, p, transport, options);
  stopper.join();
  EXPECT_EQ(v.stopped, StopReason::kStop);
  EXPECT_FALSE(v.margin.exact());
  EXPECT_GE(reports, 2);
  EXPECT_GT(reported, 0u);
  EXPECT_GE(saves, 4);  // the last one at the stop
  EXPECT_GT(saved, 0u);
}

// A stop flag raised ends a search with the bounds proven, which hold the value.
TEST(Frontier, StopReturnsBounds) {
  const Rules r{6, Capture::kEmpty};
  Position p;
  p.board = start_board(6, 4);
  StopFlag stop;
  LocalTransport transport(r, nullptr, 2, 1, size_t{16} << 20, &stop);
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop.raise();
  });
  SearchSetup setup{.rules = r};
  setup.stop = &stop;
  const SearchResult v = value_frontier(setup, p, transport, kSmallFrontier);
  stopper.join();
  EXPECT_EQ(v.stopped, StopReason::kStop);
  EXPECT_LE(v.margin.lower, 10);  // Kalah(6,4), empty capture: +10
  EXPECT_GE(v.margin.upper, 10);
}

}  // namespace
}  // namespace kalah
