// deadline.h: raising a search's stop flag at a time, or when another flag is raised, for
// searches that must answer by then.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "base/stop.h"

namespace kalah {

// Raises `flag` with kDeadline at `when`, or with the reason `also()` gives as soon as it gives
// one (asked every 20 ms: nobody signals it), unless destroyed first.
class Deadline {
 public:
  using Clock = std::chrono::steady_clock;
  using Watched = std::function<StopReason()>;

  Deadline(Clock::time_point when, StopFlag& flag, Watched also)
      : thread_([this, when, &flag, also = std::move(also)] {
          std::unique_lock lock(mutex_);
          StopReason why = StopReason::kNone;
          while (!finished_ && Clock::now() < when) {
            if (also && (why = also()) != StopReason::kNone) break;
            done_.wait_until(lock, also ? std::min(when, Clock::now() + kLook) : when);
          }
          if (!finished_) flag.raise(why != StopReason::kNone ? why : StopReason::kDeadline);
        }) {}
  // Watching another flag, whose reason it takes.
  Deadline(Clock::time_point when, StopFlag& flag, const StopFlag* also = nullptr)
      : Deadline(when, flag, also ? Watched([also] { return also->reason(); }) : Watched()) {}
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
  static constexpr std::chrono::milliseconds kLook{20};
  std::mutex mutex_;
  std::condition_variable done_;
  bool finished_ = false;
  std::thread thread_;  // last: starts once the members it uses exist
};

// The time `seconds` (>= 0) from now; a timeout longer than a century is none (the end of the
// clock's time), where adding it would overflow.
inline Deadline::Clock::time_point seconds_from_now(double seconds) {
  if (!(seconds < 3e9)) return Deadline::Clock::time_point::max();
  return Deadline::Clock::now() + std::chrono::duration_cast<Deadline::Clock::duration>(
                                      std::chrono::duration<double>(std::max(0.0, seconds)));
}

}  // namespace kalah
