// threads.h: how many threads the parallel parts of kalah use, and limiting them.
#pragma once

#include <memory>

namespace kalah {

// `requested` threads, or all the cores oneTBB sees when it is 0. Throws std::invalid_argument
// when it is negative or absurd (over 4096).
int thread_count(int requested);

// Limits oneTBB's parallelism in the whole process to thread_count(requested) while it lives.
class ThreadLimit {
 public:
  explicit ThreadLimit(int requested);
  ~ThreadLimit();
  int threads() const { return threads_; }

 private:
  int threads_;
  std::shared_ptr<void> control_;  // a tbb::global_control, kept out of this header
};

}  // namespace kalah
