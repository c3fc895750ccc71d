// estimating.cpp: the heuristic search beside the proof (query/estimating.h).
#include "query/estimating.h"

#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

#include "base/deadline.h"

namespace kalah {
namespace {

// The calling thread's priority (Linux keeps one per thread): nice 10, or only what no other
// thread wants. Failures are harmless.
void lower_priority(bool idle_only) {
  if (idle_only) {
    const sched_param none{};
    if (sched_setscheduler(0, SCHED_IDLE, &none) == 0) return;  // 0: the calling thread
  }
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
}

HeuristicOptions options_of(const Query& q) {
  HeuristicOptions options;
  options.leaves = q.db;
  options.every_move = q.ask == Ask::kAnalysis || q.estimate_every_move;
  options.table_bytes = size_t{32} << 20;
  return options;
}

}  // namespace

Estimate in_margins(Estimate e, const Position& p) {
  const int stores = p.mover_store - p.opponent_store;
  e.value += stores;
  for (MoveEstimate& m : e.moves) m.value += stores;
  return e;
}

Estimate estimate_for(const Query& q, std::chrono::milliseconds time) {
  StopFlag halt;
  HeuristicOptions options = options_of(q);
  options.stop = &halt;
  std::optional<Deadline> until;
  if (time.count() > 0) {
    until.emplace(std::chrono::steady_clock::now() + time, halt);
  } else {  // the first iteration alone: no timer thread, a table it cannot fill
    halt.raise(StopReason::kDeadline);
    options.table_bytes = size_t{1} << 20;
  }
  return in_margins(heuristic_search(q.rules, q.position.board, options), q.position);
}

Estimate within(Estimate e, const SearchProgress& proven) {
  if (proven.margin.lower > proven.margin.upper) return e;  // nothing proven yet
  e.value = std::clamp(e.value, proven.margin.lower, proven.margin.upper);
  for (MoveEstimate& m : e.moves)
    for (const MoveMargin& b : proven.moves)
      if (b.pit == m.pit) m.value = std::clamp(m.value, b.margin.lower, b.margin.upper);
  return e;
}

Estimating::Estimating(const Query& q, std::chrono::milliseconds slice, Improved improved)
    : start_(std::chrono::steady_clock::now()),
      slice_(slice),
      improved_sink_(std::move(improved)),
      thread_([this, q] { work(q); }) {}

Estimating::~Estimating() {
  halt_.raise(StopReason::kCancel);
  thread_.join();
}

void Estimating::work(const Query& q) {
  HeuristicOptions options = options_of(q);
  options.stop = &halt_;
  bool lowered = false;
  heuristic_search(q.rules, q.position.board, options, [&](const Estimate& e) {
    Estimate margins = in_margins(e, q.position);
    if (improved_sink_) improved_sink_(margins);
    {
      std::lock_guard lock(mutex_);
      latest_ = std::move(margins);
    }
    improved_.notify_all();
    if (!lowered && std::chrono::steady_clock::now() - start_ >= slice_) {
      lower_priority(q.estimate_when_idle);
      lowered = true;
    }
  });
  {
    std::lock_guard lock(mutex_);
    ended_ = true;
  }
  improved_.notify_all();
}

void Estimating::wait_first(const StopFlag* stop) {
  std::unique_lock lock(mutex_);
  const auto until = start_ + slice_;
  while (!ended_ && !(latest_ && latest_->exact) && !(stop && stop->raised()) &&
         std::chrono::steady_clock::now() < until)
    improved_.wait_until(
        lock, std::min(until, std::chrono::steady_clock::now() + std::chrono::milliseconds(10)));
}

std::optional<Estimate> Estimating::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

}  // namespace kalah
