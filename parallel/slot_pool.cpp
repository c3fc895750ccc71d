// slot_pool.cpp: the slots' threads and their queue (slot_pool.h).
#include "parallel/slot_pool.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "base/units.h"
#include "solver/solver.h"

namespace kalah {

struct SlotPool::Slot {
  std::unique_ptr<Solver> solver;
  uint64_t running = 0;  // the job's id, 0 when idle
  StopFlag cancel;
  LeafAnswer carried{};  // the counts of a search a growing table stopped, for the next answer
  std::thread thread;
};

SlotPool::SlotPool(const Rules& rules, const LeafValues* leaves, int slots, size_t table_bytes,
                   const StopFlag* stop)
    : table_(table_bytes, slots > 1) {
  for (int i = 0; i < slots; ++i) {
    auto slot = std::make_unique<Slot>();
    slot->solver = std::make_unique<Solver>(rules, table_, leaves);
    slot->solver->set_stop_flag(stop);
    slot->solver->set_cancel_flag(&slot->cancel);
    slots_.push_back(std::move(slot));
  }
  for (auto& slot : slots_) slot->thread = std::thread([this, s = slot.get()] { run(*s); });
}

SlotPool::~SlotPool() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
    for (auto& slot : slots_) slot->cancel.raise(StopReason::kCancel);
  }
  work_.notify_all();
  quiet_.notify_all();
  for (auto& slot : slots_) slot->thread.join();
}

void SlotPool::submit(const LeafJob& job) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(job);
  }
  work_.notify_one();
}

void SlotPool::cancel(uint64_t id) {
  {
    std::lock_guard lock(mutex_);
    for (auto& slot : slots_)
      if (slot->running == id) slot->cancel.raise(StopReason::kCancel);
    const auto it =
        std::find_if(queue_.begin(), queue_.end(), [&](const LeafJob& j) { return j.id == id; });
    if (it != queue_.end()) {
      answers_.push_back(nothing_proven(*it));
      queue_.erase(it);
    }
  }
  answered_.notify_all();
}

std::vector<LeafAnswer> SlotPool::answers(double seconds) {
  std::unique_lock lock(mutex_);
  answered_.wait_for(lock, std::chrono::duration<double>(seconds),
                     [&] { return !answers_.empty(); });
  return std::exchange(answers_, {});
}

void SlotPool::grow_table(std::unique_lock<std::mutex>& lock) {
  quiet_.wait(lock, [&] { return searching_ == 0 || closing_ || !table_.growth_wanted(); });
  if (closing_ || !table_.growth_wanted()) return;
  table_.split(0, table_.grow_shared());  // holding the lock: no slot starts a search meanwhile
  work_.notify_all();
}

void SlotPool::run(Slot& slot) {
  Solver& solver = *slot.solver;
  for (;;) {
    LeafJob job;
    {
      std::unique_lock lock(mutex_);
      work_.wait(lock, [&] { return closing_ || !queue_.empty(); });
      if (closing_) return;
      job = queue_.front();
      queue_.pop_front();
      slot.running = job.id;
      slot.cancel.reset();
      ++searching_;
    }
    LeafAnswer a = nothing_proven(job);
    const uint64_t nodes = solver.nodes(), probes = solver.probes();
    const auto start = std::chrono::steady_clock::now();
    bool again = false;  // it left the table for its growth: the job runs again after
    try {
      const int r = solver.search(job.board, job.beta - 1, job.beta);
      if (solver.left_table() == Leave::kNone)
        (r >= job.beta ? a.lower : a.upper) = static_cast<int16_t>(r);
      else
        again = !slot.cancel.raised();
    } catch (const SearchInterrupted&) {  // stopped or cancelled: nothing proven
    }
    a.nodes = solver.nodes() - nodes + slot.carried.nodes;
    a.probes = solver.probes() - probes + slot.carried.probes;
    a.microseconds = static_cast<uint64_t>(seconds_since(start) * 1e6) + slot.carried.microseconds;
    std::unique_lock lock(mutex_);
    slot.running = 0;
    --searching_;
    quiet_.notify_all();
    if (again) {
      slot.carried = a;
      queue_.push_front(job);
    } else {
      slot.carried = {};
      answers_.push_back(a);
      answered_.notify_all();
    }
    if (table_.shared() && table_.growth_wanted()) grow_table(lock);
  }
}

LocalTransport::LocalTransport(const Rules& rules, const LeafValues* leaves, int processes,
                               int slots, size_t table_bytes, const StopFlag* stop) {
  for (int p = 0; p < processes; ++p)
    pools_.push_back(std::make_unique<SlotPool>(rules, leaves, slots, table_bytes, stop));
}

std::vector<LeafAnswer> LocalTransport::exchange(double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::vector<LeafAnswer> in;
  do {
    for (auto& pool : pools_) {
      std::vector<LeafAnswer> some = pool->answers(pool == pools_[0] ? 0.0002 : 0);
      in.insert(in.end(), some.begin(), some.end());
    }
  } while (in.empty() && std::chrono::steady_clock::now() < deadline);
  return in;
}

}  // namespace kalah
