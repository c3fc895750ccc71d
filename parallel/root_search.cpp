// root_search.cpp: the root moves in parallel over one shared table (ABDADA), for
// parallel_search.cpp: the null-window tests at the root and the state a checkpoint keeps.
#include "parallel/root_search.h"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>

namespace kalah {
namespace {

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

// The threads a search may use: the arena's, or fewer under a tbb::global_control (--threads).
int thread_limit() {
  return static_cast<int>(std::min<size_t>(
      tbb::this_task_arena::max_concurrency(),
      tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
}

}  // namespace

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

// Grows a shared table that asked to, splitting its buckets on all threads.
void grow_table(TranspositionTable& table) {
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
  std::vector<StopFlag> done(count);  // answered, or some move reached beta: kCancel
  std::atomic<bool> reached{false};
  // Why a search of this run stopped, when it stopped for the table's growth or a checkpoint:
  // the moves not answered run again once that is done.
  std::atomic<Leave> again{Leave::kNone};
  std::mutex mutex;
  const auto run = [&] {
    tbb::parallel_for(
        0, std::max(threads, count), 1,
        [&](int k) {
          const int i = k % count;
          RootMove& c = *order[first + i];
          if (done[i].raised()) return;
          Solver& solver = *c.helpers[k / count];
          const MoveResult& r = c.result;
          const Window w = child_window(r, beta - 1, beta);
          solver.set_cancel_flag(&done[i]);
          try {
            const int found = solver.search(r.board, w.alpha, w.beta);
            if (const Leave left = solver.left_table(); left != Leave::kNone) {
              again = left;  // nothing proven: it runs again once the table is grown or saved
            } else {
              const int v = move_value(r, found);
              std::lock_guard lock(mutex);
              if (!done[i].raised()) {
                if (v >= beta) {
                  c.bounds.lower = std::max(c.bounds.lower, v);
                  reached = true;
                  for (auto& d : done) d.raise(StopReason::kCancel);
                } else {
                  c.bounds.upper = std::min(c.bounds.upper, v);
                  done[i].raise(StopReason::kCancel);
                }
              }
            }
          } catch (const SearchInterrupted&) {  // stopped or cancelled: nothing proven
          }
          solver.set_cancel_flag(nullptr);  // the flag lives for this test only
        },
        tbb::simple_partitioner());
  };
  // A table that wants to grow, or a checkpoint that is due, makes every search leave it
  // (Leave::kGrow, kPause, by return); the table grows or is saved with all threads out of it, and
  // the moves not answered yet run again, finding their finished subtrees in the table.
  for (;;) {
    again = Leave::kNone;
    run();
    if (again == Leave::kNone) break;
    if (table.growth_wanted()) grow_table(table);
    if (pauses && pauses->due()) pauses->save();
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

RootSearch::RootSearch(const SearchSetup& setup, const Board& b)
    : seeds(kalah::seeds(b)),
      moves(root_moves(setup.rules, b)),
      threads(thread_limit()),
      // As much memory as a table per move would have; on one thread a private one (no locks,
      // no ABDADA marks, and it grows as it fills).
      table(setup.table_bytes * moves.size(), threads > 1),
      checkpoint(setup.checkpoint && setup.checkpoint->save ? setup.checkpoint : nullptr) {
  if (checkpoint) {
    if (checkpoint->resume) resume(*checkpoint->resume);
    pauses = std::make_unique<Pauses>(checkpoint->seconds, [this] { save(); });
  }
  // As many solvers per move as threads: a test may put every thread on one move.
  for (RootMove& c : moves)
    for (int h = 0; h < threads; ++h) {
      c.helpers.push_back(std::make_unique<Solver>(setup.rules, table, setup.leaves));
      c.helpers.back()->set_stop_flag(setup.stop);
      c.helpers.back()->set_node_counter(setup.live_nodes);
      if (pauses) c.helpers.back()->set_pause_flag(pauses->flag());
    }
}

void RootSearch::resume(const SearchState& state) {
  for (const MoveBounds& saved : state.moves)
    for (RootMove& t : moves)
      if (t.pit == saved.pit) {
        t.bounds.lower = std::max(t.bounds.lower, saved.bounds.lower);
        t.bounds.upper = std::min(t.bounds.upper, saved.bounds.upper);
      }
  for (const RootMove& t : moves)
    if (t.bounds.lower > t.bounds.upper)
      throw std::runtime_error("the checkpoint contradicts itself: pit " +
                               std::to_string(t.pit + 1) + "'s bounds do not meet");
  table.restore(state.entries);
  earlier_nodes = state.nodes;
}

void RootSearch::save() const {
  SearchState state;
  for (const RootMove& t : moves) state.moves.push_back({t.pit, t.bounds});
  state.entries = table.costliest(checkpoint->entries);
  uint64_t probes = 0;
  state.nodes = earlier_nodes;
  add_counts(moves, state.nodes, probes);
  checkpoint->save(state);
}

}  // namespace kalah
