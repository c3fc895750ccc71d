// query_search.cpp: the searches behind run(): value and full analysis (here or over processes),
// the pie rule (every opening exact, or its value from null-window tests), the move to play.
#include "query/query_search.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stop_token>
#include <thread>
#include <unordered_map>
#include <utility>

#include "parallel/frontier_analysis.h"
#include "parallel/parallel_search.h"
#include "query/estimating.h"
#include "store/checkpoint.h"

namespace kalah {
namespace {

SearchSetup setup_of(const Query& q, const StopFlag* stop) {
  SearchSetup s;
  s.rules = q.rules;
  s.leaves = q.db;
  s.table_bytes = table_bytes(q);
  s.stop = stop;
  return s;
}

// The checkpoints of the search of `at` in q's directory (none without one). `full`: a full
// analysis, whose notes estimate what remains.
std::unique_ptr<Checkpoints> checkpoints(const Query& q, const Position& at, bool full) {
  if (q.checkpoint_dir.empty()) return nullptr;
  return open_checkpoints(q.checkpoint_dir, q.checkpoint_seconds, q.rules, at, full, q.note);
}

void add_counts(const SearchResult& r, Outcome& o) {
  o.nodes += r.nodes;
  o.probes += r.probes;
  o.earlier_nodes += r.earlier_nodes;
}

// The progress of a search and of its estimate, reported by two threads one at a time.
class Reports {
 public:
  Reports(const Query& q, const FrontierStats& stats) : q_(q), stats_(stats) {
    proven_.margin = margin_bounds(q.position);
  }
  void proven(const SearchProgress& now) {
    std::lock_guard lock(mutex_);
    proven_ = now;
    send();
  }
  void estimated(const Estimate& e) {
    std::lock_guard lock(mutex_);
    estimate_ = e;
    send();
  }
  // The latest report again, with the nodes searched since (a heartbeat).
  void beat() {
    std::lock_guard lock(mutex_);
    send();
  }
  std::atomic<uint64_t> live_nodes{0};  // the search's solvers add to it (SearchSetup)

 private:
  void send() {
    if (!q_.progress) return;
    QueryProgress report;
    report.search = proven_;
    report.search.nodes = std::max(proven_.nodes, live_nodes.load(std::memory_order_relaxed));
    report.nodes_by_process = stats_.nodes_by_process;
    if (estimate_) report.estimate = within(*estimate_, proven_);
    q_.progress(report);
  }
  const Query& q_;
  const FrontierStats& stats_;
  std::mutex mutex_;
  SearchProgress proven_;
  std::optional<Estimate> estimate_;
};

// Calls beat() every half second for its lifetime: a search may prove nothing and its estimate
// finish no iteration for minutes, and progress should still show the nodes it searches.
class Heartbeat {
 public:
  explicit Heartbeat(std::function<void()> beat)
      : thread_([beat = std::move(beat)](std::stop_token stop) {
          std::mutex mutex;
          std::condition_variable_any wake;
          std::unique_lock lock(mutex);
          while (!wake.wait_for(lock, stop, std::chrono::milliseconds(500),
                                [&stop] { return stop.stop_requested(); }))
            beat();
        }) {}

 private:
  std::jthread thread_;  // stopped and joined first thing on destruction
};

// The estimate's first slice: 150 ms, or a quarter of the time left.
std::chrono::milliseconds first_slice(const Query& q) {
  std::chrono::milliseconds slice(150);
  if (q.deadline)
    slice = std::min(slice, std::chrono::duration_cast<std::chrono::milliseconds>(
                                (*q.deadline - std::chrono::steady_clock::now()) / 4));
  return std::max(slice, std::chrono::milliseconds(1));
}

// The value or the full analysis of q's position.
void search_position(const Query& q, const StopFlag* stop, Outcome& o) {
  const bool full = q.ask == Ask::kAnalysis;
  SearchSetup setup = setup_of(q, stop);
  const std::unique_ptr<Checkpoints> saves = checkpoints(q, q.position, full);
  setup.checkpoint = saves ? &saves->checkpointing : nullptr;
  FrontierStats stats;  // over processes: filled before each progress report
  Reports reports(q, stats);
  std::optional<Estimating> estimating;
  if (q.estimate) {
    estimating.emplace(q, first_slice(q), [&](const Estimate& e) { reports.estimated(e); });
    estimating->wait_first(stop);
  }
  if (q.progress) setup.progress = [&](const SearchProgress& now) { reports.proven(now); };
  setup.live_nodes = &reports.live_nodes;
  // A search long enough probes nearly every block thousands of times: decoded into memory first,
  // on the query's threads, every probe is one load from the start (docs/design.md §6.3). A
  // shorter one, or one with a deadline, decodes only the blocks it probes most.
  if (q.db && !q.deadline &&
      expected_nodes(q) >= kDecodeFirstNodesPerByte * static_cast<double>(q.db->decodable_bytes()))
    q.db->decode_in_memory();
  std::optional<Heartbeat> heartbeat;  // over processes stats_ is filled by the search's thread
  if (q.progress && !q.transport) heartbeat.emplace([&] { reports.beat(); });
  SearchResult r;
  if (q.transport) {
    r = full ? analyse_frontier(setup, q.position, *q.transport, q.frontier, &stats)
             : value_frontier(setup, q.position, *q.transport, q.frontier, &stats);
    o.processes = stats;
  } else {
    r = full ? analyse_parallel(setup, q.position) : value_parallel(setup, q.position);
  }
  heartbeat.reset();
  o.margin = r.margin;
  o.stopped = r.stopped;
  add_counts(r, o);
  if (full && r.complete()) o.analysis = std::move(r.analysis);
  if (estimating && (o.estimate = estimating->latest())) {
    SearchProgress proven;
    proven.margin = o.margin;
    o.estimate = within(*o.estimate, proven);
  }
}

// The pie rule: V of every opening's board, from full analyses on all cores of q's position and
// of every position an extra turn within the first turn leads to (each values all its moves).
void search_pie_rule(const Query& q, const StopFlag* stop, Outcome& o) {
  const size_t total = openings(q.rules, q.position).size();
  std::unordered_map<Board, int, BoardHash> known;
  const std::function<bool(const Position&)> analyse_turns = [&](const Position& at) {
    SearchSetup setup = setup_of(q, stop);
    const std::unique_ptr<Checkpoints> saves = checkpoints(q, at, true);
    setup.checkpoint = saves ? &saves->checkpointing : nullptr;
    if (q.progress)
      setup.progress = [&](const SearchProgress& now) {
        QueryProgress report;
        report.search = now;
        report.openings_done = known.size();
        report.openings = total;
        q.progress(report);
      };
    const SearchResult r = analyse_parallel(setup, at);
    add_counts(r, o);
    if (!r.complete()) {
      o.stopped = r.stopped;
      return false;
    }
    for (const MoveReport& move : r.analysis.moves) {
      const Position c = apply(q.rules, at, move.pit);
      if (c.mover == at.mover && !is_terminal(q.rules, c.board)) {
        if (!analyse_turns(c)) return false;
      } else {
        known[c.board] = (c.mover == at.mover ? move.value : -move.value) - final_margin(c, 0);
      }
    }
    return true;
  };
  if (!analyse_turns(q.position)) {
    o.margin = margin_bounds(q.position);  // a pie rule stopped proves no others
    return;
  }
  o.pie = pie_rule(q.rules, q.position, [&](const Board& b) { return known.at(b); });
  o.margin = {o.pie->value, o.pie->value};
}

// The pie rule's tests on one opening, on all cores, with its checkpoint: its counts go to the
// outcome, and a raised stop ends the rule (the checkpoint keeps what was proven).
class PieTests : public MarginTests {
 public:
  PieTests(const SearchSetup& setup, const Position& after, std::unique_ptr<Checkpoints> saves,
           Outcome& out)
      : saves_(std::move(saves)),
        tests_(with_checkpoint(setup, saves_.get()), after),
        stop_(setup.stop),
        out_(out) {}
  ~PieTests() override {
    tests_.add_counts(out_.nodes, out_.probes);
    out_.earlier_nodes += tests_.earlier_nodes();
  }
  Bounds test(int beta) override {
    const Bounds proven = tests_.test(beta);
    if (stop_ && stop_->raised()) throw SearchInterrupted(stop_->reason());
    return proven;
  }

 private:
  static SearchSetup with_checkpoint(SearchSetup setup, const Checkpoints* saves) {
    setup.checkpoint = saves ? &saves->checkpointing : nullptr;
    return setup;
  }
  std::unique_ptr<Checkpoints> saves_;  // outlives the tests, which save to it
  RootTests tests_;
  const StopFlag* stop_;
  Outcome& out_;
};

// The pie rule's value and best opening alone (solver/openings.h's pie_value).
void search_pie_value(const Query& q, const StopFlag* stop, Outcome& o) {
  const size_t total = openings(q.rules, q.position).size();
  size_t searched = 0;
  try {
    o.pie = pie_value(q.rules, q.position, [&](const Position& after) {
      if (q.progress) {
        QueryProgress report;
        report.openings_done = searched;
        report.openings = total;
        q.progress(report);
      }
      ++searched;
      return std::make_unique<PieTests>(setup_of(q, stop), after, checkpoints(q, after, false), o);
    });
    o.margin = {o.pie->value, o.pie->value};
  } catch (const SearchInterrupted& e) {
    o.stopped = e.reason;
    o.margin = margin_bounds(q.position);  // a pie rule stopped proves no others
  }
}

}  // namespace

void search(const Query& q, const StopFlag* stop, Outcome& o) {
  o.source = Source::kSearch;
  switch (q.ask) {
    case Ask::kAnalysis:
    case Ask::kValue:
      return search_position(q, stop, o);
    case Ask::kPie:
      return search_pie_rule(q, stop, o);
    case Ask::kPieValue:
      return search_pie_value(q, stop, o);
    case Ask::kMove:
      break;
  }
  throw std::logic_error("search: not a search");
}

MoveChoice move_of(const Query& q, const StopFlag* stop) {
  MoveImproved improved;
  if (q.progress)
    improved = [&](const MoveChoice& c) {
      QueryProgress report;
      report.move = c;
      q.progress(report);
    };
  return choose_move(setup_of(q, stop), q.db, q.position, q.deadline.value_or(MoveClock::now()),
                     improved);
}

MoveChoice level_move(const Query& q, const StopFlag* stop) {
  Query all = q;  // every move's value (or estimate) by the deadline
  all.ask = Ask::kAnalysis;
  all.estimate = true;
  all.stop = stop;
  all.level = nullptr;
  all.progress = nullptr;
  const Outcome o = run(all);
  std::vector<std::pair<int, int>> moves;  // (value, pit)
  if (o.complete() && o.analysis)
    for (const MoveReport& m : o.analysis->moves) moves.push_back({m.value, m.pit});
  else if (o.estimate)
    for (const MoveEstimate& m : o.estimate->moves) moves.push_back({m.value, m.pit});
  if (moves.empty()) return move_of(q, stop);  // nothing known of the moves: the heuristic's
  const int best = std::max_element(moves.begin(), moves.end())->first;
  std::vector<std::pair<int, int>> near;
  for (const auto& m : moves)
    if (m.first >= best - q.level->within) near.push_back(m);
  thread_local std::mt19937 rng{std::random_device{}()};
  const auto& [value, pit] = near[std::uniform_int_distribution<size_t>(0, near.size() - 1)(rng)];
  const int depth = o.complete() ? 0 : o.estimate->depth;  // an estimate says how deep it looked
  MoveChoice c{pit, o.complete(), value, o.complete() ? o.source : Source::kHeuristic, depth};
  c.best = best;
  return c;
}

}  // namespace kalah
