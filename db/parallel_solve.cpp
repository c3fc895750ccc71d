// parallel_solve.cpp: one task and one Solver per root move.
#include "db/parallel_solve.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace kalah {

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

  struct Task {
    int pit;
    MoveResult result;
    std::unique_ptr<Solver> solver;
    int lower, upper;  // bounds on the move's value to the mover, stores left out
    bool done = false;
    MoveReport report;
  };
  std::vector<Task> tasks;
  for (int pit = 0; pit < rules.pits; ++pit) {
    if (p.board.pits[pit] == 0) continue;
    Task t;
    t.pit = pit;
    t.result = play(rules, p.board, pit);
    const int s = seeds(t.result.board);
    t.lower = t.result.gain - s;
    t.upper = t.result.gain + s;
    tasks.push_back(std::move(t));
  }

  tbb::parallel_for(
      size_t{0}, tasks.size(), size_t{1},
      [&](size_t i) {
        Task& t = tasks[i];
        t.solver = std::make_unique<Solver>(rules, table_bytes, leaves);
        Solver& solver = *t.solver;
        solver.set_stop_flag(stop);
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
    const Task& t = tasks[i];
    out.nodes += t.solver->nodes();
    out.probes += t.solver->probes();
    out.interrupted = out.interrupted || !t.done;
    if (best < 0 || t.lower > tasks[best].lower) best = static_cast<int>(i);
  }
  int lower = tasks[0].lower, upper = tasks[0].upper;
  for (const Task& t : tasks) {
    lower = std::max(lower, t.lower);
    upper = std::max(upper, t.upper);
  }
  out.lower = stores + lower;
  out.upper = stores + upper;
  if (out.interrupted) return out;

  Analysis& a = out.analysis;
  a.board_value = lower;
  a.value = out.lower;
  for (const Task& t : tasks) a.moves.push_back(t.report);
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

}  // namespace kalah
