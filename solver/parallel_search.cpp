// parallel_search.cpp: the root moves in parallel over one shared table (ABDADA): the value, and
// the full analysis, which goes on to each other move's exact value.
#include "solver/parallel_search.h"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/mtdf.h"
#include "solver/pauses.h"

namespace kalah {
namespace {

// A root move and its solvers, one per thread, over the shared table.
struct RootMove {
  int pit;
  MoveResult result;
  std::vector<std::unique_ptr<Solver>> helpers;
  Bounds bounds;  // on the move's value to the mover, stores left out
};

std::vector<RootMove> root_moves(const Rules& rules, const Board& b) {
  std::vector<RootMove> moves;
  for (int pit = 0; pit < rules.pits; ++pit) {
    if (b.pits[pit] == 0) continue;
    RootMove mv;
    mv.pit = pit;
    mv.result = play(rules, b, pit);
    const int s = seeds(mv.result.board);
    mv.bounds = {mv.result.gain - s, mv.result.gain + s};
    moves.push_back(std::move(mv));
  }
  return moves;
}

// The position's value lies between the best proven move value and the best bound of any move.
Bounds root_bounds(const std::vector<RootMove>& moves) {
  Bounds b = moves[0].bounds;
  for (const RootMove& t : moves) {
    b.lower = std::max(b.lower, t.bounds.lower);
    b.upper = std::max(b.upper, t.bounds.upper);
  }
  return b;
}

// Adds up the nodes and probes of every solver of the moves.
void add_counts(const std::vector<RootMove>& moves, uint64_t& nodes, uint64_t& probes) {
  for (const RootMove& t : moves)
    for (const auto& solver : t.helpers) {
      nodes += solver->nodes();
      probes += solver->probes();
    }
}

// The threads a search may use: the arena's, or fewer under a tbb::global_control (--threads).
int thread_limit() {
  return static_cast<int>(std::min<size_t>(
      tbb::this_task_arena::max_concurrency(),
      tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
}

// Grows a shared table that asked to, splitting its buckets on all threads.
void grow(TranspositionTable& table) {
  const size_t old = table.grow_shared();
  tbb::parallel_for(tbb::blocked_range<size_t>(0, old, 4096),
                    [&](const tbb::blocked_range<size_t>& r) { table.split(r.begin(), r.end()); });
}

// Searches order[first, first + count) at the null window beta on the moves' values with
// max(threads, count) tasks, task k on the (k mod count)-th move, so that threads beyond the
// moves help with the likeliest ones (their solvers share one table; ABDADA spreads them).
// Narrows each answered move's bounds; true as soon as one reaches beta, which cancels the others.
bool search_moves(const std::vector<RootMove*>& order, int first, int count,
                  TranspositionTable& table, int beta, int threads, Pauses* pauses) {
  std::vector<std::atomic<bool>> done(count);  // answered, or some move reached beta
  std::atomic<bool> reached{false};
  std::mutex mutex;
  const auto run = [&] {
    tbb::parallel_for(
        0, std::max(threads, count), 1,
        [&](int k) {
          const int i = k % count;
          RootMove& c = *order[first + i];
          if (done[i]) return;
          Solver& solver = *c.helpers[k / count];
          const MoveResult& r = c.result;
          const Window w = child_window(r, beta - 1, beta);
          solver.set_cancel_flag(&done[i]);
          try {
            const int v = move_value(r, solver.search(r.board, w.alpha, w.beta));
            std::lock_guard lock(mutex);
            if (!done[i]) {
              if (v >= beta) {
                c.bounds.lower = std::max(c.bounds.lower, v);
                reached = true;
                for (auto& d : done) d = true;
              } else {
                c.bounds.upper = std::min(c.bounds.upper, v);
                done[i] = true;
              }
            }
          } catch (const SearchInterrupted&) {  // cancelled or stopped: nothing proven
          }
          solver.set_cancel_flag(nullptr);  // the flag lives for this test only
        },
        tbb::simple_partitioner());
  };
  // A table that wants to grow, or a checkpoint that is due, stops every search (they throw as
  // if cancelled); the table grows or is saved with all threads out of it, and the moves not
  // answered yet run again, finding their finished subtrees in the table.
  for (;;) {
    run();
    const bool save = pauses && pauses->due();
    if (!table.growth_wanted() && !save) break;
    if (table.growth_wanted()) grow(table);
    if (save) pauses->save();
    if (reached) break;
  }
  return reached.load();
}

// One MTD(f) test at the root, "is V at least beta?", over the root moves not yet decided:
// yes as soon as one reaches beta. Returns the bounds the moves prove (an interrupted test
// proves nothing new).
Bounds test_root(std::vector<RootMove>& moves, TranspositionTable& table, int beta, int threads,
                 Pauses* pauses) {
  for (const RootMove& c : moves)
    if (c.bounds.lower >= beta) return root_bounds(moves);
  std::vector<RootMove*> order;
  for (RootMove& c : moves)
    if (c.bounds.upper >= beta) order.push_back(&c);
  std::stable_sort(order.begin(), order.end(), [&](const RootMove* x, const RootMove* y) {
    if (x->bounds.lower != y->bounds.lower) return x->bounds.lower > y->bounds.lower;
    if (x->bounds.upper != y->bounds.upper) return x->bounds.upper > y->bounds.upper;
    return x->result.extra_turn && (!y->result.extra_turn || x->pit > y->pit);
  });
  if (order.empty()) return root_bounds(moves);
  // The likeliest move first, by every thread, then the others: a test that the first move
  // decides (most of those that reach beta) wastes no work on the others (docs/design.md §7).
  if (!search_moves(order, 0, 1, table, beta, threads, pauses) && order.size() > 1)
    search_moves(order, 1, static_cast<int>(order.size()) - 1, table, beta, threads, pauses);
  return root_bounds(moves);
}

// The root moves, a shared table and a solver per move and thread over it: the state of a
// value search, and of a full analysis, which goes on from it. With checkpoints, it starts from
// the state saved and stops its searches now and then to save it again.
struct RootSearch {
  int seeds;  // on the root board
  std::vector<RootMove> moves;
  int threads;
  TranspositionTable table;
  const Checkpointing* checkpoint;
  uint64_t earlier_nodes = 0;  // of the runs before this one
  std::unique_ptr<Pauses> pauses;

  RootSearch(const Rules& rules, const Board& b, const LeafValues* leaves, size_t table_bytes,
             const std::atomic<bool>* stop, const Checkpointing* c = nullptr)
      : seeds(kalah::seeds(b)),
        moves(root_moves(rules, b)),
        threads(thread_limit()),
        // As much memory as a table per move would have; on one thread a private one (no locks,
        // no ABDADA marks, and it grows as it fills).
        table(table_bytes * moves.size(), threads > 1),
        checkpoint(c && c->save ? c : nullptr) {
    if (checkpoint) {
      if (checkpoint->resume) resume(*checkpoint->resume);
      pauses = std::make_unique<Pauses>(checkpoint->seconds, [this] { save(); });
    }
    // As many solvers per move as threads: a test may put every thread on one move.
    for (RootMove& c : moves)
      for (int h = 0; h < threads; ++h) {
        c.helpers.push_back(std::make_unique<Solver>(rules, table, leaves));
        c.helpers.back()->set_stop_flag(stop);
        if (pauses) c.helpers.back()->set_pause_flag(pauses->flag());
      }
  }

  void resume(const SearchState& state) {
    for (const MoveBounds& saved : state.moves)
      for (RootMove& t : moves)
        if (t.pit == saved.pit) {
          t.bounds.lower = std::max(t.bounds.lower, saved.lower);
          t.bounds.upper = std::min(t.bounds.upper, saved.upper);
        }
    for (const RootMove& t : moves)
      if (t.bounds.lower > t.bounds.upper)
        throw std::runtime_error("the checkpoint contradicts itself: pit " +
                                 std::to_string(t.pit + 1) + "'s bounds do not meet");
    table.restore(state.entries);
    earlier_nodes = state.nodes;
  }

  // Every thread is out of the table.
  void save() const {
    SearchState state;
    for (const RootMove& t : moves) state.moves.push_back({t.pit, t.bounds.lower, t.bounds.upper});
    state.entries = table.costliest(checkpoint->entries);
    uint64_t probes = 0;
    state.nodes = earlier_nodes;
    add_counts(moves, state.nodes, probes);
    checkpoint->save(state);
  }

  // MTD(f) at the root: the bounds proven on the board's V, its value unless `after_test` (as
  // mtdf's) stopped it.
  template <class AfterTest>
  Bounds value(AfterTest&& after_test) {
    Bounds bounds{-seeds, seeds};
    mtdf(
        bounds, 0, [&](int beta) { return test_root(moves, table, beta, threads, pauses.get()); },
        after_test);
    return bounds;
  }

  // MTD(f) on one move's value, every thread on it, from the bounds the value search left.
  template <class AfterTest>
  void settle(RootMove& t, AfterTest&& after_test) {
    const std::vector<RootMove*> order{&t};
    Bounds bounds = t.bounds;
    mtdf(
        bounds, t.bounds.upper,
        [&](int beta) {
          search_moves(order, 0, 1, table, beta, threads, pauses.get());
          return t.bounds;
        },
        after_test);
  }
};

}  // namespace

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
      grow(root.table);
    }
  }
  out.nodes += solver.nodes();
  out.probes += solver.probes();
  return out;
}

}  // namespace kalah
