// parallel_search.cpp: the root moves in parallel over one shared table (ABDADA): the value, and
// the full analysis, which goes on to each other move's exact value.
#include "parallel/parallel_search.h"

#include <algorithm>
#include <vector>

#include "parallel/root_search.h"

namespace kalah {
namespace {

int stores_of(const Position& p) {
  return p.mover_store - p.opponent_store;
}

// What the root has proven, as final margins.
SearchProgress progress_of(const RootSearch& root, int stores) {
  SearchProgress now;
  now.total = static_cast<int>(root.moves.size());
  const Bounds b = root_bounds(root.moves);
  now.margin = {stores + b.lower, stores + b.upper};
  for (const RootMove& t : root.moves) {
    now.done += t.bounds.exact();
    now.moves.push_back({t.pit, {stores + t.bounds.lower, stores + t.bounds.upper}});
  }
  uint64_t probes = 0;
  add_counts(root.moves, now.nodes, probes);
  return now;
}

// The counts and bounds of a search that has ended; `done` says whether it got its answer, and
// if not, the stop flag why.
SearchResult result_of(const RootSearch& root, int stores, bool done, const StopFlag* stop) {
  SearchResult out;
  add_counts(root.moves, out.nodes, out.probes);
  out.earlier_nodes = root.earlier_nodes;
  out.table_bytes = root.table.bytes_in_use();
  const Bounds b = root_bounds(root.moves);
  out.margin = {stores + b.lower, stores + b.upper};
  if (!done) out.stopped = stop && stop->raised() ? stop->reason() : StopReason::kStop;
  return out;
}

// Each move's turn and a best line, read from the table by one solver (little is left to
// search) once every move's value is exact. It is the table's only thread, so it does not leave
// it for growth (Solver::stay_for_growth).
void read_turns(const SearchSetup& setup, const Position& p, RootSearch& root, SearchResult& out) {
  Solver solver(setup.rules, root.table, setup.leaves);
  solver.set_stop_flag(setup.stop);
  solver.stay_for_growth();
  Analysis& a = out.analysis;
  a.board_value = out.margin.lower - stores_of(p);
  a.value = out.margin.lower;
  try {
    const RootMove* best = nullptr;
    for (const RootMove& t : root.moves) {
      const MoveResult& r = t.result;
      const int child = r.extra_turn ? t.bounds.lower - r.gain : r.gain - t.bounds.lower;
      a.moves.push_back(
          report_move(setup.rules, p, t.pit, child, values_of(solver), move_tests_of(solver)));
      if (!best && t.bounds.lower == a.board_value) best = &t;
    }
    // The best line: the first best move's whole turn, then best play.
    const std::vector<int>& turn = a.moves[best - root.moves.data()].turn;
    Position q = p;
    for (int pit : turn) q = apply(setup.rules, q, pit);
    a.best_line = {turn};
    for (auto& line_turn : best_line(setup.rules, q, values_of(solver), move_tests_of(solver)))
      a.best_line.push_back(line_turn);
  } catch (const SearchInterrupted& e) {
    out.stopped = e.reason;
  }
  out.nodes += solver.nodes();
  out.probes += solver.probes();
}

}  // namespace

SearchResult value_parallel(const SearchSetup& setup, const Position& p) {
  const int stores = stores_of(p);
  if (is_terminal(setup.rules, p.board)) {
    SearchResult out;
    out.margin.lower = out.margin.upper = stores + terminal_value(setup.rules, p.board);
    return out;
  }
  RootSearch root(setup, p.board);
  const Bounds bounds = root.value([&](const Bounds&) {
    if (setup.stop && setup.stop->raised()) return false;
    if (setup.progress) setup.progress(progress_of(root, stores));
    return true;
  });
  if (root.pauses) root.pauses->save();  // finished or stopped: what a rerun starts from
  SearchResult out = result_of(root, stores, bounds.exact(), setup.stop);
  out.margin = {stores + bounds.lower, stores + bounds.upper};
  if (bounds.exact())
    for (const RootMove& t : root.moves)
      if (t.bounds.lower == bounds.lower) {
        out.best_pit = t.pit;
        break;
      }
  return out;
}

SearchResult analyse_parallel(const SearchSetup& setup, const Position& p) {
  if (is_terminal(setup.rules, p.board)) {
    Solver solver(setup.rules, setup.table_bytes, setup.leaves);
    SearchResult out;
    out.analysis = analyse(solver, p);
    out.margin.lower = out.margin.upper = out.analysis.value;
    return out;
  }
  const int stores = stores_of(p);
  RootSearch root(setup, p.board);
  const auto report = [&] {
    if (setup.progress) setup.progress(progress_of(root, stores));
  };
  const auto go_on = [&](const Bounds&) {
    report();
    return !(setup.stop && setup.stop->raised());
  };
  // The value first: it settles the best move and bounds every other; then each other move's
  // exact value, every thread on it, over the same table.
  root.value(go_on);
  report();
  for (RootMove& t : root.moves)
    if (!(setup.stop && setup.stop->raised()) && !t.bounds.exact()) root.settle(t, go_on);
  if (root.pauses) root.pauses->save();  // finished or stopped: what a rerun starts from
  const bool done = std::all_of(root.moves.begin(), root.moves.end(),
                                [](const RootMove& t) { return t.bounds.exact(); });
  SearchResult out = result_of(root, stores, done, setup.stop);
  if (done) read_turns(setup, p, root, out);
  return out;
}

RootTests::RootTests(const SearchSetup& setup, const Position& p)
    : root_(std::make_unique<RootSearch>(setup, p.board)), stores_(stores_of(p)) {}

RootTests::~RootTests() {
  if (root_->pauses) root_->pauses->save();
}

Bounds RootTests::test(int beta) {
  const int b = std::clamp(beta - stores_, -root_->seeds, root_->seeds + 1);
  const Bounds proven =
      test_root(root_->moves, root_->table, b, root_->threads, root_->pauses.get());
  return {stores_ + std::max(proven.lower, -root_->seeds),
          stores_ + std::min(proven.upper, root_->seeds)};
}

void RootTests::add_counts(uint64_t& nodes, uint64_t& probes) const {
  kalah::add_counts(root_->moves, nodes, probes);
}

uint64_t RootTests::earlier_nodes() const {
  return root_->earlier_nodes;
}

}  // namespace kalah
