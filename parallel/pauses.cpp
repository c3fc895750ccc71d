// pauses.cpp: the timer thread of pauses.h.
#include "parallel/pauses.h"

#include <algorithm>

namespace kalah {

namespace {
std::chrono::steady_clock::duration after(double seconds) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(seconds));
}
}  // namespace

Pauses::Pauses(double seconds, std::function<void()> save)
    : seconds_(seconds),
      save_(std::move(save)),
      due_(std::chrono::steady_clock::now() + after(seconds)),
      timer_([this] { wait(); }) {
  if (seconds <= 0) due_now_ = true;  // the first pause at the first check
}

Pauses::~Pauses() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  timer_.join();
}

void Pauses::wait() {
  std::unique_lock lock(mutex_);
  while (!done_) {
    const auto due = due_;
    wake_.wait_until(lock, due, [&] { return done_ || due_ != due; });
    if (!done_ && due_ == due && std::chrono::steady_clock::now() >= due) {
      due_now_ = true;
      due_ = due + after(1e9);  // none until saved() sets the next
    }
  }
}

void Pauses::save() {
  const auto start = std::chrono::steady_clock::now();
  save_();
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  {
    std::lock_guard lock(mutex_);
    due_now_ = false;
    due_ = std::chrono::steady_clock::now() + after(std::max(seconds_, 50 * took));
  }
  wake_.notify_all();
}

}  // namespace kalah
