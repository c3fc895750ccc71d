// stop.h: why a search ends before its answer, and the flag that tells it (docs/design.md §7).
//
// A search looks at its flags every few thousand nodes. A raised stop, deadline or cancel ends
// it: it throws SearchInterrupted with the flag's reason (the one exception, since the search
// must unwind), and whoever catches it answers with the bounds proven or drops the moot test. (A
// pause or a shared table's growth is no end, and no stop: solver/solver.h's Leave.)
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace kalah {

enum class StopReason : uint8_t {
  kNone,      // not stopped
  kStop,      // the caller stopped it: Ctrl-C, a client's cancel, a server closing
  kDeadline,  // the time it was given ran out
  kCancel,    // it became moot: another move decided the test, its job was cancelled
};

// "stop", "deadline", "cancel" ("" for kNone): the word answers use.
constexpr const char* to_string(StopReason why) {
  constexpr const char* kWords[] = {"", "stop", "deadline", "cancel"};
  return kWords[static_cast<int>(why)];
}

// Raised from any thread, or from a signal handler (a lock-free compare-and-swap): the first
// reason raised stays until reset().
class StopFlag {
 public:
  void raise(StopReason why = StopReason::kStop) {
    StopReason none = StopReason::kNone;
    why_.compare_exchange_strong(none, why);
  }
  void reset() { why_ = StopReason::kNone; }
  bool raised() const { return reason() != StopReason::kNone; }
  StopReason reason() const { return why_.load(); }

 private:
  std::atomic<StopReason> why_{StopReason::kNone};
};
static_assert(std::atomic<StopReason>::is_always_lock_free);

// Thrown out of a search by a raised stop, deadline or cancel flag.
struct SearchInterrupted : std::runtime_error {
  explicit SearchInterrupted(StopReason why)
      : std::runtime_error(std::string("search interrupted: ") + to_string(why)), reason(why) {}
  StopReason reason;
};

}  // namespace kalah
