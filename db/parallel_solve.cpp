// parallel_solve.cpp: one Solver per root move.
#include "db/parallel_solve.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace kalah {

namespace {

// A root move and a Solver of its own: its table is that move's search memory.
struct RootMove {
  int pit;
  MoveResult result;
  std::unique_ptr<Solver> solver;
  int lower, upper;  // bounds on the move's value to the mover, stores left out
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
    mv.lower = mv.result.gain - s;
    mv.upper = mv.result.gain + s;
    mv.solver = std::make_unique<Solver>(rules, table_bytes, leaves);
    mv.solver->set_stop_flag(stop);
    moves.push_back(std::move(mv));
  }
  return moves;
}

}  // namespace

ParallelAnalysis analyse_parallel(const Rules& rules, const Position& p, const LeafValues* leaves,
                                  size_t table_bytes, const std::atomic<bool>* stop) {
  ParallelAnalysis out;
  const int stores = p.mover_store - p.opponent_store;
  if (is_terminal(rules, p.board)) {
    Solver solver(rules, table_bytes, leaves);
    out.analysis = analyse(solver, p);
    out.lower = out.upper = out.analysis.value;
    return out;
  }

  std::vector<RootMove> tasks = root_moves(rules, p.board, leaves, table_bytes, stop);

  tbb::parallel_for(
      size_t{0}, tasks.size(), size_t{1},
      [&](size_t i) {
        RootMove& t = tasks[i];
        Solver& solver = *t.solver;
        const MoveResult& r = t.result;
        try {
          const int v = solver.value(r.board);
          t.lower = t.upper = move_value(r, v);
          t.report = report_move(
              rules, p, t.pit, v, [&](const Board& b) { return solver.value(b); },
              [&](const Board& b, int pit, int target) {
                return solver.move_reaches(b, pit, target);
              });
          t.done = true;
        } catch (const SearchInterrupted&) {
          if (t.lower != t.upper) {  // interrupted while valuing the move: what MTD(f) proved
            t.lower = r.extra_turn ? r.gain + solver.lower_bound() : r.gain - solver.upper_bound();
            t.upper = r.extra_turn ? r.gain + solver.upper_bound() : r.gain - solver.lower_bound();
          }
        }
      },
      tbb::simple_partitioner());

  int best = -1;
  for (size_t i = 0; i < tasks.size(); ++i) {
    const RootMove& t = tasks[i];
    out.nodes += t.solver->nodes();
    out.probes += t.solver->probes();
    out.interrupted = out.interrupted || !t.done;
    if (best < 0 || t.lower > tasks[best].lower) best = static_cast<int>(i);
  }
  int lower = tasks[0].lower, upper = tasks[0].upper;
  for (const RootMove& t : tasks) {
    lower = std::max(lower, t.lower);
    upper = std::max(upper, t.upper);
  }
  out.lower = stores + lower;
  out.upper = stores + upper;
  if (out.interrupted) return out;

  Analysis& a = out.analysis;
  a.board_value = lower;
  a.value = out.lower;
  for (const RootMove& t : tasks) a.moves.push_back(t.report);
  // The best line: the first best move's whole turn, then best play, from that move's solver.
  Solver& solver = *tasks[best].solver;
  const uint64_t nodes = solver.nodes(), probes = solver.probes();
  Position q = p;
  for (int pit : tasks[best].report.turn) q = apply(rules, q, pit);
  a.best_line = {tasks[best].report.turn};
  try {
    for (auto& turn : best_line(
             rules, q, [&](const Board&b) { return solver.value(b); },
             [&](const Board&b, int pit, int v) { return solver.move_reaches(b, pit, v); }))
      a.best_line.push_back(turn);
  } catch (const SearchInterrupted&) {
    out.interrupted = true;
  }
  out.nodes += solver.nodes() - nodes;
  out.probes += solver.probes() - probes;
  return out;
}

ParallelValue value_parallel(const Rules& rules, const Position& p, const LeafValues* leaves,
                             size_t table_bytes, const std::atomic<bool>* stop,
                             const ValueProgress& progress) {
  ParallelValue out;
  const int stores = p.mover_store - p.opponent_store;
  if (is_terminal(rules, p.board)) {
    out.lower = out.upper = stores + terminal_value(rules, p.board);
    return out;
  }
  std::vector<RootMove> children = root_moves(rules, p.board, leaves, table_bytes, stop);

  const int s = seeds(p.board);
  int lower = -s, upper = s, guess = 0;
  while (lower < upper) {
    const int beta = guess == lower ? guess + 1 : guess;
    // Is V >= beta? Yes as soon as one move reaches beta; the other tests are then cancelled.
    // Moves known to reach it, or known to fall short, need no search.
    std::atomic<bool> reached{false};
    for (const RootMove& c : children)
      if (c.lower >= beta) reached = true;
    if (!reached) {
      // The likeliest to reach beta first: the highest proven value, then the highest bound,
      // then extra turns, nearest the store first.
      std::vector<size_t> order(children.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const RootMove &x = children[a], &y = children[b];
        if (x.lower != y.lower) return x.lower > y.lower;
        if (x.upper != y.upper) return x.upper > y.upper;
        return x.result.extra_turn && (!y.result.extra_turn || a > b);
      });
      tbb::parallel_for(
          size_t{0}, order.size(), size_t{1},
          [&](size_t k) {
            RootMove& c = children[order[k]];
            if (reached || c.upper < beta) return;
            const MoveResult& r = c.result;
            c.solver->set_cancel_flag(&reached);
            try {
              const int v =
                  r.extra_turn
                      ? r.gain + c.solver->search(r.board, beta - 1 - r.gain, beta - r.gain)
                      : r.gain - c.solver->search(r.board, r.gain - beta, r.gain - beta + 1);
              if (v >= beta) {
                c.lower = std::max(c.lower, v);
                reached = true;
              } else {
                c.upper = std::min(c.upper, v);
              }
            } catch (const SearchInterrupted&) {  // cancelled or stopped: nothing proven
            }
            c.solver->set_cancel_flag(nullptr);  // the flag lives for this test only
          },
          tbb::simple_partitioner());
    }
    // V lies between the best proven move value and the best bound of any move, whatever the
    // tests found (an interrupted one included).
    int best_lower = -s - 1, best_upper = -s - 1;
    for (const RootMove& c : children) {
      best_lower = std::max(best_lower, c.lower);
      best_upper = std::max(best_upper, c.upper);
    }
    lower = std::max(lower, best_lower);
    upper = std::min(upper, best_upper);
    if (stop && stop->load()) {
      out.interrupted = true;
      break;
    }
    guess = reached ? lower : upper;
    if (progress) {
      ParallelValue so_far = out;
      so_far.lower = stores + lower;
      so_far.upper = stores + upper;
      for (const RootMove& c : children) so_far.nodes += c.solver->nodes();
      progress(so_far);
    }
  }
  for (const RootMove& c : children) {
    out.nodes += c.solver->nodes();
    out.probes += c.solver->probes();
  }
  out.lower = stores + lower;
  out.upper = stores + upper;
  return out;
}

}  // namespace kalah
