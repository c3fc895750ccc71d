// estimating.h: an estimate at once, and better ones while a search proves (docs/design.md §7,
// "Estimates"): the heuristic search (solver/heuristic.h) over the query's database on a thread
// of its own, for run()'s value and full analysis.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "query/query.h"

namespace kalah {

// The heuristic's estimate of p's board (V, stores left out) in final margins.
Estimate in_margins(Estimate e, const Position& p);
// An estimate kept within what a search has proven: the position's value within its bounds,
// each move's within its own (final margins).
Estimate within(Estimate e, const SearchProgress& proven);
// The estimate of q's position (every move's for a full analysis) that `time` of the heuristic
// search finds, in final margins.
Estimate estimate_for(const Query& q, std::chrono::milliseconds time);

class Estimating {
 public:
  using Improved = std::function<void(const Estimate&)>;
  // Starts the heuristic search of q's position (every move's estimate for a full analysis),
  // calling `improved` on its own thread with each iteration's estimate (final margins). For its
  // first `slice` it has a core to itself; after that it runs at a lower priority, so that it
  // improves the estimate with what the search leaves idle and a little more (or nothing more:
  // Query::estimate_when_idle).
  Estimating(const Query& q, std::chrono::milliseconds slice, Improved improved = {});
  // Stops it.
  ~Estimating();
  Estimating(const Estimating&) = delete;
  Estimating& operator=(const Estimating&) = delete;

  // Waits until the first slice is over, or the estimate is exact, or `stop` is raised.
  void wait_first(const StopFlag* stop);
  // The latest estimate (final margins), if any iteration has finished.
  std::optional<Estimate> latest() const;

 private:
  void work(const Query& q);

  const std::chrono::steady_clock::time_point start_;
  const std::chrono::milliseconds slice_;
  const Improved improved_sink_;
  StopFlag halt_;
  mutable std::mutex mutex_;
  std::condition_variable improved_;
  std::optional<Estimate> latest_;  // under mutex_
  bool ended_ = false;              // under mutex_
  std::thread thread_;              // last: starts once the members it uses exist
};

}  // namespace kalah
