// move_choice.cpp: the heuristic's move first, then the proven one if the time allows.
#include "api/move_choice.h"

#include "api/deadline.h"
#include "solver/heuristic.h"
#include "solver/parallel_search.h"

namespace kalah {
namespace {

constexpr int kMaxDepth = 200;

MoveChoice heuristic_choice(const HeuristicMove& h, int stores) {
  return {h.pit, h.exact, stores + h.estimate, Source::kHeuristic, h.depth};
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

MoveChoice choose_move(const SearchSetup& setup, const Database* db, const Position& p,
                       MoveClock::time_point deadline, const MoveImproved& improved) {
  MoveChoice choice;
  const Rules& rules = setup.rules;
  const int stores = p.mover_store - p.opponent_store;
  if (is_terminal(rules, p.board)) {
    choice.proven = true;
    choice.value = stores + terminal_value(rules, p.board);
    return choice;
  }
  if (db && seeds(p.board) <= db->max_seeds()) {
    uint64_t probes = 0;
    const Analysis a = db->analyse(p, probes);
    choice = {a.best_line.front().front(), true, a.value, Source::kDatabase, 0};
    if (improved) improved(choice);
    return choice;
  }
  const auto now = MoveClock::now();
  {
    StopFlag halt;
    const Deadline heuristic_deadline(now + (std::max(deadline, now) - now) / 10, halt,
                                      setup.stop);
    choice = heuristic_choice(
        heuristic_move(rules, p.board, &halt, kMaxDepth, heuristic_progress(stores, improved)),
        stores);
  }
  if (choice.proven || (setup.stop && setup.stop->raised()) || MoveClock::now() >= deadline)
    return choice;
  StopFlag halt;
  const Deadline value_deadline(deadline, halt, setup.stop);
  SearchSetup value = setup;
  value.stop = &halt;
  const SearchResult v = value_parallel(value, p);
  if (!v.complete() || v.best_pit < 0) return choice;
  choice = {v.best_pit, true, v.margin.lower, Source::kSearch, 0};
  if (improved) improved(choice);
  return choice;
}

MoveChoice choose_move(const Rules& rules, const AnyBoard& b, int stores,
                       MoveClock::time_point deadline, const StopFlag* stop,
                       const MoveImproved& improved) {
  StopFlag halt;
  const Deadline until(deadline, halt, stop);
  return heuristic_choice(
      heuristic_move(rules, b, &halt, kMaxDepth, heuristic_progress(stores, improved)), stores);
}

}  // namespace kalah
