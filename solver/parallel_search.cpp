// parallel_search.cpp: the root moves in parallel over one shared table (ABDADA): the value, and
// the full analysis, which goes on to each other move's exact value.
#include "solver/parallel_search.h"

#include <algorithm>
#include <vector>

#include "solver/root_search.h"

namespace kalah {

ParallelValue value_parallel(const Rules& rules, const Position& p, const LeafValues* leaves,
                             size_t table_bytes, const std::atomic<bool>* stop,
                             const ValueProgress& progress, const Checkpointing* checkpoint) {
  ParallelValue out;
  const int stores = p.mover_store - p.opponent_store;
  if (is_terminal(rules, p.board)) {
    out.lower = out.upper = stores + terminal_value(rules, p.board);
    return out;
  }
  RootSearch root(rules, p.board, leaves, table_bytes, stop, checkpoint);
  const Bounds bounds = root.value([&](const Bounds& so_far) {
    if (stop && stop->load()) {
      out.interrupted = true;
      return false;
    }
    if (progress) {
      ParallelValue v;
      add_counts(root.moves, v.nodes, v.probes);
      v.lower = stores + so_far.lower;
      v.upper = stores + so_far.upper;
      progress(v);
    }
    return true;
  });
  if (root.pauses) root.pauses->save();  // finished or stopped: what a rerun starts from
  add_counts(root.moves, out.nodes, out.probes);
  out.earlier_nodes = root.earlier_nodes;
  out.table_bytes = root.table.bytes_in_use();
  out.lower = stores + bounds.lower;
  out.upper = stores + bounds.upper;
  if (bounds.exact())
    for (const RootMove& t : root.moves)
      if (t.bounds.lower == bounds.lower) {
        out.best_pit = t.pit;
        break;
      }
  return out;
}

RootTests::RootTests(const Rules& rules, const Position& p, const LeafValues* leaves,
                     size_t table_bytes, const std::atomic<bool>* stop,
                     const Checkpointing* checkpoint)
    : root_(std::make_unique<RootSearch>(rules, p.board, leaves, table_bytes, stop, checkpoint)),
      stores_(p.mover_store - p.opponent_store) {}

RootTests::~RootTests() {
  if (root_->pauses) root_->pauses->save();
}

Bounds RootTests::test(int beta) {
  const int b = std::clamp(beta - stores_, -root_->seeds, root_->seeds + 1);
  const Bounds proven = test_root(root_->moves, root_->table, b, root_->threads,
                                  root_->pauses.get());
  return {stores_ + std::max(proven.lower, -root_->seeds),
          stores_ + std::min(proven.upper, root_->seeds)};
}

void RootTests::add_counts(uint64_t& nodes, uint64_t& probes) const {
  kalah::add_counts(root_->moves, nodes, probes);
}

uint64_t RootTests::earlier_nodes() const { return root_->earlier_nodes; }

ParallelAnalysis analyse_parallel(const Rules& rules, const Position& p, const LeafValues* leaves,
                                  size_t table_bytes, const std::atomic<bool>* stop,
                                  const MoveProgress& progress, const Checkpointing* checkpoint) {
  ParallelAnalysis out;
  const int stores = p.mover_store - p.opponent_store;
  if (is_terminal(rules, p.board)) {
    Solver solver(rules, table_bytes, leaves);
    out.analysis = analyse(solver, p);
    out.lower = out.upper = out.analysis.value;
    return out;
  }
  RootSearch root(rules, p.board, leaves, table_bytes, stop, checkpoint);
  const auto report = [&] {
    if (!progress) return;
    AnalysisProgress now;
    now.total = static_cast<int>(root.moves.size());
    const Bounds b = root_bounds(root.moves);
    now.lower = stores + b.lower;
    now.upper = stores + b.upper;
    for (const RootMove& t : root.moves) {
      now.done += t.bounds.exact();
      now.moves.push_back({t.pit, stores + t.bounds.lower, stores + t.bounds.upper});
    }
    progress(now);
  };
  const auto go_on = [&](const Bounds&) {
    report();
    return !(stop && stop->load());
  };
  // The value first: it settles the best move and bounds every other; then each other move's
  // exact value, every thread on it, over the same table.
  root.value(go_on);
  report();
  for (RootMove& t : root.moves)
    if (!(stop && stop->load()) && !t.bounds.exact()) root.settle(t, go_on);
  if (root.pauses) root.pauses->save();  // finished or stopped: what a rerun starts from
  add_counts(root.moves, out.nodes, out.probes);
  out.earlier_nodes = root.earlier_nodes;
  const Bounds proven = root_bounds(root.moves);
  out.lower = stores + proven.lower;
  out.upper = stores + proven.upper;
  out.interrupted = std::any_of(root.moves.begin(), root.moves.end(),
                                [](const RootMove& t) { return !t.bounds.exact(); });
  if (out.interrupted) return out;

  // Each move's turn and a best line, read from the table by one solver (little is left to
  // search). A shared table that asks to grow stops it as it stops every search: it grows, and
  // the reports start again.
  Solver solver(rules, root.table, leaves);
  solver.set_stop_flag(stop);
  Analysis& a = out.analysis;
  a.board_value = proven.lower;
  a.value = out.lower;
  for (;;) {
    try {
      a.moves.clear();
      const RootMove* best = nullptr;
      for (const RootMove& t : root.moves) {
        const MoveResult& r = t.result;
        const int child = r.extra_turn ? t.bounds.lower - r.gain : r.gain - t.bounds.lower;
        a.moves.push_back(
            report_move(rules, p, t.pit, child, values_of(solver), move_tests_of(solver)));
        if (!best && t.bounds.lower == proven.lower) best = &t;
      }
      // The best line: the first best move's whole turn, then best play.
      const std::vector<int>& turn = a.moves[best - root.moves.data()].turn;
      Position q = p;
      for (int pit : turn) q = apply(rules, q, pit);
      a.best_line = {turn};
      for (auto& line_turn : best_line(rules, q, values_of(solver), move_tests_of(solver)))
        a.best_line.push_back(line_turn);
      break;
    } catch (const SearchInterrupted&) {
      if (!root.table.growth_wanted() || (stop && stop->load())) {
        out.interrupted = true;
        break;
      }
      grow_table(root.table);
    }
  }
  out.nodes += solver.nodes();
  out.probes += solver.probes();
  return out;
}

}  // namespace kalah
