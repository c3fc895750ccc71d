// search.h: the frontier search's jobs (parallel/leaf_jobs.h) over MPI: process 0 manages, every
// process (0 included) runs jobs on its slots (docs/design.md §7, "Over several processes").
//
// Messages are batches, never one a node: process 0 sends each process the jobs (32 bytes) and
// cancellations (8 bytes) of one round of its manager in one message each; a process sends back
// the answers (40 bytes) its threads produced since its last message. A job is a whole null-window
// search of a subtree, thousands to billions of nodes.
#pragma once

#include <cstdint>
#include <vector>

#include "mpi/session.h"
#include "parallel/slot_pool.h"

namespace kalah {

// Process 0's side: its own pool, and messages to the others.
class MpiTransport final : public JobTransport {
 public:
  // `local` is process 0's pool. Collective with serve_jobs (every process says its slots).
  MpiTransport(const MpiSession& mpi, SlotPool& local);
  // Tells every other process to return from serve_jobs; every job must have been answered
  // (FrontierSearch::finish).
  ~MpiTransport() override;

  int processes() const override { return static_cast<int>(slots_.size()); }
  int slots(int process) const override { return slots_[process]; }
  void submit(int process, const LeafJob& job) override;
  void cancel(int process, uint64_t id) override;
  std::vector<LeafAnswer> exchange(double seconds) override;
  uint64_t bytes() const override { return bytes_; }

 private:
  SlotPool& local_;
  std::vector<int> slots_;
  std::vector<std::vector<LeafJob>> jobs_;      // to send, by process
  std::vector<std::vector<uint64_t>> cancels_;  // to send, by process
  uint64_t bytes_ = 0;
};

// The other processes' side: runs process 0's jobs on `pool` until it says stop. Collective
// with MpiTransport's constructor.
void serve_jobs(const MpiSession& mpi, SlotPool& pool);

}  // namespace kalah
