// parallel_search.cpp: the root moves in parallel: a full analysis with a Solver and a table per
// move; the value with Solvers over one shared table (ABDADA).
#include "solver/parallel_search.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "solver/mtdf.h"

namespace kalah {
namespace {

// A root move and a Solver of its own: its table is that move's search memory.
struct RootMove {
  int pit;
  MoveResult result;
  std::unique_ptr<Solver> solver;                // analyse_parallel: with a table of its own
  std::vector<std::unique_ptr<Solver>> helpers;  // value_parallel: over the shared table
  Bounds bounds;  // on the move's value to the mover, stores left out
  bool done = false;
  MoveReport report;
};

std::vector<RootMove> root_moves(const Rules& rules, const Board& b, const LeafValues* leaves,
                                 size_t table_bytes, const std::atomic<bool>* stop) {
  std::vector<RootMove> moves;
  for (int pit = 0; pit < rules.pits; ++pit) {
    if (b.pits[pit] == 0) continue;
    RootMove mv;
    mv.pit = pit;
    mv.result = play(rules, b, pit);
    const int s = seeds(mv.result.board);
    mv.bounds = {mv.result.gain - s, mv.result.gain + s};
    if (table_bytes > 0) {
      mv.solver = std::make_unique<Solver>(rules, table_bytes, leaves);
      mv.solver->set_stop_flag(stop);
    }
    moves.push_back(std::move(mv));
  }
  return moves;
}

// Runs f(move) for every root move in parallel, one task per move.
template <class F>
void for_each_move(std::vector<RootMove>& moves, F&& f) {
  tbb::parallel_for(
      size_t{0}, moves.size(), size_t{1}, [&](size_t i) { f(moves[i]); },
      tbb::simple_partitioner());
}

// Values one root move and reports its turn; on an interruption keeps what MTD(f) proved.
void value_move(const Rules& rules, const Position& p, RootMove& t) {
  Solver& solver = *t.solver;
  const MoveResult& r = t.result;
  try {
    const int v = solver.value(r.board);
    t.bounds = {move_value(r, v), move_value(r, v)};
    t.report = report_move(rules, p, t.pit, v, values_of(solver), move_tests_of(solver));
    t.done = true;
  } catch (const SearchInterrupted&) {
    if (!t.bounds.exact())  // interrupted while valuing the move
      t.bounds = move_bounds(r, {solver.lower_bound(), solver.upper_bound()});
  }
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

// Adds up the nodes and probes of every solver of the moves (their own, and the helpers).
void add_counts(const std::vector<RootMove>& moves, uint64_t& nodes, uint64_t& probes) {
  const auto add = [&](const Solver& solver) {
    nodes += solver.nodes();
    probes += solver.probes();
  };
  for (const RootMove& t : moves) {
    if (t.solver) add(*t.solver);
    for (const auto& helper : t.helpers) add(*helper);
  }
}

}  // namespace

ParallelAnalysis analyse_parallel(const Rules& rules, const Position& p, const LeafValues* leaves,
                                  size_t table_bytes, const std::atomic<bool>* stop,
                                  const MoveProgress& progress) {
  ParallelAnalysis out;
  const int stores = p.mover_store - p.opponent_store;
  if (is_terminal(rules, p.board)) {
    Solver solver(rules, table_bytes, leaves);
    out.analysis = analyse(solver, p);
    out.lower = out.upper = out.analysis.value;
    return out;
  }

  std::vector<RootMove> moves = root_moves(rules, p.board, leaves, table_bytes, stop);
  std::atomic<int> valued{0};
  for_each_move(moves, [&](RootMove& t) {
    value_move(rules, p, t);
    if (progress) progress(++valued, static_cast<int>(moves.size()));
  });
  add_counts(moves, out.nodes, out.probes);
  const Bounds bounds = root_bounds(moves);
  out.lower = stores + bounds.lower;
  out.upper = stores + bounds.upper;
  out.interrupted = std::any_of(moves.begin(), moves.end(), [](auto& t) { return !t.done; });
  if (out.interrupted) return out;

  Analysis& a = out.analysis;
  a.board_value = bounds.lower;
  a.value = out.lower;
  const RootMove* best = &moves[0];
  for (const RootMove& t : moves) {
    a.moves.push_back(t.report);
    if (t.bounds.lower > best->bounds.lower) best = &t;
  }
  // The best line: the first best move's whole turn, then best play, from that move's solver.
  Solver& solver = *best->solver;
  const uint64_t nodes = solver.nodes(), probes = solver.probes();
  Position q = p;
  for (int pit : best->report.turn) q = apply(rules, q, pit);
  a.best_line = {best->report.turn};
  try {
    for (auto& turn : best_line(rules, q, values_of(solver), move_tests_of(solver)))
      a.best_line.push_back(turn);
  } catch (const SearchInterrupted&) {
    out.interrupted = true;
  }
  out.nodes += solver.nodes() - nodes;
  out.probes += solver.probes() - probes;
  return out;
}

namespace {

// Grows a shared table that asked to, splitting its buckets on all threads.
void grow(TranspositionTable& table) {
  const size_t old = table.grow_shared();
  tbb::parallel_for(tbb::blocked_range<size_t>(0, old, 4096),
                    [&](const tbb::blocked_range<size_t>& r) { table.split(r.begin(), r.end()); });
}

// One MTD(f) test at the root, "is V at least beta?", over the root moves not yet decided:
// yes as soon as one reaches beta, which cancels the others. Moves are searched with
// max(threads, moves) tasks, task k on the (k mod moves)-th, so that threads beyond the moves
// help with the likeliest ones (their solvers share one table; ABDADA spreads them). Returns the
// bounds the moves prove (an interrupted test proves nothing new).
Bounds test_root(std::vector<RootMove>& moves, TranspositionTable& table, int beta, int threads) {
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
  // Searches `count` moves from order[first] with max(threads, count) tasks; true when one
  // reaches beta.
  const auto search_moves = [&](int first, int count) {
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
    // A table that wants to grow stops every search (they throw as if cancelled); it grows with
    // all threads out of it, and the moves not answered yet run again, finding their finished
    // subtrees in the table.
    for (;;) {
      run();
      if (!table.growth_wanted()) break;
      grow(table);
      if (reached) break;
    }
    return reached.load();
  };
  // The likeliest move first, by every thread, then the others: a test that the first move
  // decides (most of those that reach beta) wastes no work on the others (docs/design.md §7).
  if (!search_moves(0, 1) && order.size() > 1) search_moves(1, static_cast<int>(order.size()) - 1);
  return root_bounds(moves);
}

}  // namespace

ParallelValue value_parallel(const Rules& rules, const Position& p, const LeafValues* leaves,
                             size_t table_bytes, const std::atomic<bool>* stop,
                             const ValueProgress& progress) {
  ParallelValue out;
  const int stores = p.mover_store - p.opponent_store;
  if (is_terminal(rules, p.board)) {
    out.lower = out.upper = stores + terminal_value(rules, p.board);
    return out;
  }
  std::vector<RootMove> moves = root_moves(rules, p.board, leaves, 0, stop);
  // One table, as much memory as a table per move would have; on one thread a private one (no
  // locks, no ABDADA marks, and it grows as it fills).
  const int threads = tbb::this_task_arena::max_concurrency();
  TranspositionTable table(table_bytes * moves.size(), threads > 1);
  // As many solvers per move as threads: a test may put every thread on one move.
  for (RootMove& c : moves)
    for (int h = 0; h < threads; ++h) {
      c.helpers.push_back(std::make_unique<Solver>(rules, table, leaves));
      c.helpers.back()->set_stop_flag(stop);
    }
  const int s = seeds(p.board);
  Bounds bounds{-s, s};
  mtdf(
      bounds, 0, [&](int beta) { return test_root(moves, table, beta, threads); },
      [&](const Bounds& so_far) {
        if (stop && stop->load()) {
          out.interrupted = true;
          return false;
        }
        if (progress) {
          ParallelValue v;
          add_counts(moves, v.nodes, v.probes);
          v.lower = stores + so_far.lower;
          v.upper = stores + so_far.upper;
          progress(v);
        }
        return true;
      });
  add_counts(moves, out.nodes, out.probes);
  out.table_bytes = table.bytes_in_use();
  out.lower = stores + bounds.lower;
  out.upper = stores + bounds.upper;
  return out;
}

}  // namespace kalah
