// move_choice.cpp: the heuristic's move first, then the proven one if the time allows.
#include "api/move_choice.h"

#include <chrono>

#include "api/deadline.h"
#include "solver/heuristic.h"
#include "solver/parallel_search.h"

namespace kalah {
namespace {

constexpr int kMaxDepth = 200;

MoveChoice heuristic_choice(const HeuristicMove& h, int stores) {
  return {h.pit, h.exact, stores + h.estimate, "heuristic", h.depth};
}

// Reports each iteration's choice when its move differs from the last reported or it is exact.
HeuristicProgress heuristic_progress(int stores, const MoveImproved& improved) {
  if (!improved) return {};
  return [stores, improved, last = -1](const HeuristicMove& h) mutable {
    if (h.pit == last && !h.exact) return;
    last = h.pit;
    improved(heuristic_choice(h, stores));
  };
}

}  // namespace

MoveChoice choose_move(const Rules& rules, const Position& p, const Database* db, double seconds,
                       const std::atomic<bool>* stop, const MoveImproved& improved) {
  MoveChoice choice;
  const int stores = p.mover_store - p.opponent_store;
  if (is_terminal(rules, p.board)) {
    choice.proven = true;
    choice.value = stores + terminal_value(rules, p.board);
    return choice;
  }
  if (db && seeds(p.board) <= db->max_seeds()) {
    uint64_t probes = 0;
    const Analysis a = db->analyse(p, probes);
    choice = {a.best_line.front().front(), true, a.value, "database", 0};
    if (improved) improved(choice);
    return choice;
  }
  const Deadline::Clock::time_point end =
      Deadline::Clock::now() +
      std::chrono::duration_cast<Deadline::Clock::duration>(std::chrono::duration<double>(seconds));
  {
    std::atomic<bool> halt{false};
    const Deadline deadline(seconds / 10, halt, stop);
    choice = heuristic_choice(
        heuristic_move(rules, p.board, &halt, kMaxDepth, heuristic_progress(stores, improved)),
        stores);
  }
  if (choice.proven || (stop && stop->load()) || Deadline::Clock::now() >= end) return choice;
  std::atomic<bool> halt{false};
  const Deadline deadline(end, halt, stop);
  const ParallelValue v = value_parallel(rules, p, db, kSearchTableBytes, &halt);
  if (v.interrupted || v.best_pit < 0) return choice;
  choice = {v.best_pit, true, v.lower, "search", 0};
  if (improved) improved(choice);
  return choice;
}

MoveChoice choose_move(const Rules& rules, const AnyBoard& b, int stores, double seconds,
                       const std::atomic<bool>* stop, const MoveImproved& improved) {
  std::atomic<bool> halt{false};
  const Deadline deadline(seconds, halt, stop);
  return heuristic_choice(
      heuristic_move(rules, b, &halt, kMaxDepth, heuristic_progress(stores, improved)), stores);
}

}  // namespace kalah
