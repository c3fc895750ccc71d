// move_choice.cpp: the heuristic's move first, then the proven one if the time allows.
#include "api/move_choice.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "solver/heuristic.h"
#include "solver/parallel_search.h"

namespace kalah {
namespace {

// Raises `flag` once `seconds` have passed or *stop is raised, whichever comes first.
class Deadline {
 public:
  Deadline(double seconds, const std::atomic<bool>* stop)
      : thread_([this, seconds, stop] {
          using Clock = std::chrono::steady_clock;
          const Clock::time_point end =
              Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(std::max(0.0, seconds)));
          std::unique_lock lock(mutex_);
          // Wakes every 20 ms to look at *stop, which nobody signals.
          while (!done_ && !(stop && stop->load()) && Clock::now() < end)
            wake_.wait_until(lock, std::min(end, Clock::now() + std::chrono::milliseconds(20)));
          flag = true;
        }) {}
  ~Deadline() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

  std::atomic<bool> flag{false};

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

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
  const auto start = std::chrono::steady_clock::now();
  {
    const Deadline deadline(seconds / 10, stop);
    choice = heuristic_choice(heuristic_move(rules, p.board, &deadline.flag, kMaxDepth,
                                             heuristic_progress(stores, improved)),
                              stores);
  }
  if (choice.proven) return choice;
  const Deadline deadline(
      seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
      stop);
  const ParallelValue v = value_parallel(rules, p, db, kSearchTableBytes, &deadline.flag);
  if (v.interrupted || v.best_pit < 0) return choice;
  choice = {v.best_pit, true, v.lower, "search", 0};
  if (improved) improved(choice);
  return choice;
}

MoveChoice choose_move(const Rules& rules, const AnyBoard& b, int stores, double seconds,
                       const std::atomic<bool>* stop, const MoveImproved& improved) {
  const Deadline deadline(seconds, stop);
  return heuristic_choice(
      heuristic_move(rules, b, &deadline.flag, kMaxDepth, heuristic_progress(stores, improved)),
      stores);
}

}  // namespace kalah
