// pauses.h: a search stopped now and then, so that its table can be saved with no thread in it
// (parallel/parallel_search.h's checkpoints).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace kalah {

class Pauses {
 public:
  // Raises flag() `seconds` after construction (at once if 0) and after each save(); `save` is
  // what the search calls once its threads have stopped.
  Pauses(double seconds, std::function<void()> save);
  ~Pauses();
  Pauses(const Pauses&) = delete;
  Pauses& operator=(const Pauses&) = delete;

  // For Solver::set_pause_flag: true while a save is due.
  const std::atomic<bool>* flag() const { return &due_now_; }
  bool due() const { return due_now_; }
  // Saves (every thread out of the table) and schedules the next pause: `seconds` on, or 50
  // times what this save took, so that saving costs at most 2 % of the time.
  void save();

 private:
  void wait();

  const double seconds_;
  const std::function<void()> save_;
  std::atomic<bool> due_now_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::chrono::steady_clock::time_point due_;
  bool done_ = false;
  std::thread timer_;
};

}  // namespace kalah
