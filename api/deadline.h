// deadline.h: raising a stop flag at a time, for searches that must answer by then.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace kalah {

// Raises `flag` at `when`, or as soon as `*also` is raised (looked at every 20 ms: nobody
// signals it), unless destroyed first.
class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  Deadline(Clock::time_point when, std::atomic<bool>& flag, const std::atomic<bool>* also = nullptr)
      : thread_([this, when, &flag, also] {
          std::unique_lock lock(mutex_);
          while (!finished_ && !(also && also->load()) && Clock::now() < when)
            done_.wait_until(
                lock, also ? std::min(when, Clock::now() + std::chrono::milliseconds(20)) : when);
          if (!finished_) flag = true;
        }) {}
  // A deadline `seconds` from now.
  Deadline(double seconds, std::atomic<bool>& flag, const std::atomic<bool>* also = nullptr)
      : Deadline(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(std::max(0.0, seconds))),
                 flag, also) {}
  ~Deadline() {
    {
      std::lock_guard lock(mutex_);
      finished_ = true;
    }
    done_.notify_one();
    thread_.join();
  }
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable done_;
  bool finished_ = false;
  std::thread thread_;  // last: starts once the members it uses exist
};

}  // namespace kalah
