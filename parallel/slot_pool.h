// slot_pool.h: one process's search threads ("slots") for the jobs of a search spread over
// processes (parallel/leaf_jobs.h), and a transport of pools within this process.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "base/stop.h"
#include "parallel/leaf_jobs.h"
#include "game/leaf_values.h"
#include "solver/transposition_table.h"

namespace kalah {

// The slots run the jobs given to the process in order, over one table as a value search's
// threads do (shared, ABDADA, when there are several; it grows as it fills, up to table_bytes).
// Thread-safe.
class SlotPool {
 public:
  SlotPool(const Rules& rules, const LeafValues* leaves, int slots, size_t table_bytes,
           const StopFlag* stop);
  ~SlotPool();
  SlotPool(const SlotPool&) = delete;
  SlotPool& operator=(const SlotPool&) = delete;

  int slots() const { return static_cast<int>(slots_.size()); }
  void submit(const LeafJob& job);
  // Drops the job if it waits, stops it if it runs (its answer then proves nothing).
  void cancel(uint64_t id);
  // The answers ready, waiting up to `seconds` for one.
  std::vector<LeafAnswer> answers(double seconds);

 private:
  struct Slot;
  void run(Slot& slot);
  // Called by a slot whose search the shared table stopped (Leave::kGrow): grows it once no slot
  // searches.
  void grow_table(std::unique_lock<std::mutex>& lock);

  TranspositionTable table_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::mutex mutex_;  // the queue, the answers, each slot's running job, searching_
  std::condition_variable work_, answered_, quiet_;
  std::deque<LeafJob> queue_;
  std::vector<LeafAnswer> answers_;
  int searching_ = 0;  // slots in a search
  bool closing_ = false;
};

// P processes simulated by P pools of this process (one process's spread search, tests).
class LocalTransport final : public JobTransport {
 public:
  LocalTransport(const Rules& rules, const LeafValues* leaves, int processes, int slots,
                 size_t table_bytes, const StopFlag* stop);
  int processes() const override { return static_cast<int>(pools_.size()); }
  int slots(int process) const override { return pools_[process]->slots(); }
  void submit(int process, const LeafJob& job) override { pools_[process]->submit(job); }
  void cancel(int process, uint64_t id) override { pools_[process]->cancel(id); }
  std::vector<LeafAnswer> exchange(double seconds) override;

 private:
  std::vector<std::unique_ptr<SlotPool>> pools_;
};

}  // namespace kalah
