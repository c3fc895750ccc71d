// move_choice.cpp: the estimate's move at once, then the proven one if the time allows.
#include "query/move_choice.h"

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <mutex>

#include "base/deadline.h"
#include "parallel/parallel_search.h"
#include "query/database_analysis.h"
#include "solver/heuristic.h"

namespace kalah {
namespace {

// A value search is tried only this many seeds above the database (or above none): beyond, it
// has no chance within a move's time and the estimate gets all of it (docs/design.md §7).
constexpr int kProvableAbove = 24;
// On one thread, the estimate's share of the time before the value search.
constexpr int kEstimatePercent = 40;

MoveChoice heuristic_choice(const Estimate& e, int stores) {
  return {e.pit, e.exact, stores + e.value, Source::kHeuristic, e.depth};
}

// Reports each iteration's choice when its move differs from the last reported or it is exact.
EstimateProgress heuristic_progress(int stores, const MoveImproved& improved) {
  if (!improved) return {};
  return [stores, improved, last = -1](const Estimate& e) mutable {
    if (e.pit == last && !e.exact) return;
    last = e.pit;
    improved(heuristic_choice(e, stores));
  };
}

// The estimate until `until` (or `stop`), its leaves the database's (a Board's only).
template <class B>
MoveChoice estimated(const Rules& rules, const LeafValues* leaves, const B& b, int stores,
                     MoveClock::time_point until, const StopFlag* stop,
                     const MoveImproved& improved) {
  StopFlag halt;
  const Deadline deadline(until, halt, stop);
  HeuristicOptions options;
  options.leaves = leaves;
  options.stop = &halt;
  return heuristic_choice(heuristic_search(rules, b, options, heuristic_progress(stores, improved)),
                          stores);
}

// The value search until `until` (or the setup's stop): a proven choice, or none.
std::optional<MoveChoice> proven(const SearchSetup& setup, const Position& p,
                                 MoveClock::time_point until, const StopFlag* also) {
  StopFlag halt;
  const Deadline deadline(until, halt, [&] {
    if (setup.stop && setup.stop->raised()) return setup.stop->reason();
    return also && also->raised() ? also->reason() : StopReason::kNone;
  });
  SearchSetup value = setup;
  value.stop = &halt;
  const SearchResult v = value_parallel(value, p);
  if (!v.complete() || v.best_pit < 0) return std::nullopt;
  return MoveChoice{v.best_pit, true, v.margin.lower, Source::kSearch, 0};
}

}  // namespace

MoveChoice choose_move(const SearchSetup& setup, const Database* db, const Position& p,
                       MoveClock::time_point deadline, const MoveImproved& improved) {
  const Rules& rules = setup.rules;
  const int stores = p.mover_store - p.opponent_store;
  if (is_terminal(rules, p.board)) return {-1, true, stores + terminal_value(rules, p.board)};
  if (db && seeds(p.board) <= db->max_seeds()) {
    uint64_t probes = 0;
    const Analysis a = analyse(*db, p, probes);
    const MoveChoice choice{a.best_line.front().front(), true, a.value, Source::kDatabase, 0};
    if (improved) improved(choice);
    return choice;
  }
  const auto now = MoveClock::now();
  deadline = std::max(deadline, now);
  const bool provable = seeds(p.board) - (db ? db->max_seeds() : 0) <= kProvableAbove;
  if (!provable) return estimated(rules, db, p.board, stores, deadline, setup.stop, improved);
  if (tbb::this_task_arena::max_concurrency() == 1) {
    const MoveChoice first =
        estimated(rules, db, p.board, stores, now + (deadline - now) * kEstimatePercent / 100,
                  setup.stop, improved);
    if (first.proven || (setup.stop && setup.stop->raised())) return first;
    const std::optional<MoveChoice> exact = proven(setup, p, deadline, nullptr);
    if (exact && improved) improved(*exact);
    return exact.value_or(first);
  }
  // Both at once, the estimate on one thread and the value search on the others; the first to
  // be exact stops the other.
  std::mutex reported;
  const MoveImproved report = [&](const MoveChoice& c) {
    std::lock_guard lock(reported);
    if (improved) improved(c);
  };
  StopFlag estimate_done, value_done;
  MoveChoice estimate;
  std::optional<MoveChoice> exact;
  tbb::task_group both;
  both.run([&] {
    StopFlag halt;
    const Deadline until(deadline, halt, [&] {
      if (setup.stop && setup.stop->raised()) return setup.stop->reason();
      return value_done.raised() ? StopReason::kCancel : StopReason::kNone;
    });
    estimate = estimated(rules, db, p.board, stores, deadline, &halt, report);
    if (estimate.proven) estimate_done.raise(StopReason::kCancel);
  });
  exact = proven(setup, p, deadline, &estimate_done);
  if (exact) {
    value_done.raise(StopReason::kCancel);
    report(*exact);
  }
  both.wait();
  if (estimate.proven) return estimate;
  return exact.value_or(estimate);
}

MoveChoice choose_move(const Rules& rules, const AnyBoard& b, int stores,
                       MoveClock::time_point deadline, const StopFlag* stop,
                       const MoveImproved& improved) {
  return estimated(rules, nullptr, b, stores, deadline, stop, improved);
}

}  // namespace kalah
