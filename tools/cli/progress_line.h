// progress_line.h: a line of progress rewritten in place on a terminal, for long work (solve,
// build, verify): "\r" + text + erase-to-end. On anything but a terminal it shows nothing, so
// logs and pipes get the answers alone. Thread-safe.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

namespace kalah {

class ProgressLine {
 public:
  // Lines on `out` (stderr or stdout), at most one every `interval`; none unless `wanted` (a
  // caller that knows its terminal is not the user's, such as mpirun's).
  explicit ProgressLine(std::FILE* out = stderr,
                        std::chrono::milliseconds interval = std::chrono::milliseconds(100),
                        bool wanted = true)
      : out_(out), live_(wanted && isatty(fileno(out))), interval_(interval) {}
  ~ProgressLine() { clear(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool live() const { return live_; }
  // Shows `text` in place of the line before (unless one was shown less than `interval` ago).
  void show(const std::string& text) {
    if (!live_) return;
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (shown_ && now - last_ < interval_) return;
    last_ = now;
    std::fprintf(out_, "\r%s\033[K", text.c_str());
    std::fflush(out_);
    shown_ = true;
  }
  // Erases the line (before an answer is printed).
  void clear() {
    std::lock_guard lock(mutex_);
    if (shown_) std::fprintf(out_, "\r\033[K");
    std::fflush(out_);
    shown_ = false;
  }
  // Replaces the line with `text`, kept: the next line starts below it. Live lines only.
  void finish(const std::string& text) {
    if (!live_) return;
    std::lock_guard lock(mutex_);
    std::fprintf(out_, "\r%s\033[K\n", text.c_str());
    std::fflush(out_);
    shown_ = false;
  }

 private:
  std::FILE* out_;
  const bool live_;
  const std::chrono::milliseconds interval_;
  std::mutex mutex_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace kalah
