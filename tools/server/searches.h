// searches.h: kalah serve's searches, apart from what they answer: admission (at most so many at
// once, each waiting for its turn until its deadline; all stopped when the server closes) and
// the named ones (a client's name for its search: what it has proven so far, and its cancel).
// Thread-safe.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <semaphore>
#include <set>
#include <string>

#include "query/query.h"

namespace kalah {

// At most `at_once` searches running; the stop flags of those admitted, for close().
class SearchAdmission {
 public:
  using Clock = std::chrono::steady_clock;
  explicit SearchAdmission(int at_once) : slots_(std::max(1, at_once)) {}

  // Registers `stop` (raised by close()); false once the server is closing.
  bool enter(StopFlag* stop);
  void leave(StopFlag* stop);
  // A slot at once, else one that frees while at least kLeast of the time to `deadline` is left
  // (waiting in short steps; a raised *stop, a cancelled search, leaves the queue): true with a
  // slot, which release() gives back. A search started with less would only cost its setup.
  static constexpr std::chrono::milliseconds kLeast{100};
  bool acquire(const StopFlag& stop, Clock::time_point deadline);
  void release() { slots_.release(); }
  // Raises every admitted search's flag; later ones are not admitted.
  void close();

 private:
  std::counting_semaphore<1024> slots_;
  std::mutex mutex_;
  std::set<StopFlag*> running_;
  bool closed_ = false;
};

// The searches a client named: registered while they wait and run.
class NamedSearches {
 public:
  using Clock = std::chrono::steady_clock;
  // What a named search has proven so far: its query's progress sink fills it in.
  struct Live {
    Rules rules;
    Position position;
    StopFlag* stop;
    Clock::time_point start = Clock::now();
    std::mutex mutex;
    std::optional<SearchProgress> so_far;  // under mutex
    std::optional<Estimate> estimate;      // under mutex
    void report(const QueryProgress& p);
  };

  // Registers a search under `id` (a later one of the same name takes it over).
  std::shared_ptr<Live> add(const std::string& id, const Rules& rules, const Position& position,
                            StopFlag* stop);
  // Unregisters it, unless another search took its name.
  void remove(const std::string& id, const StopFlag* stop);
  std::shared_ptr<Live> find(const std::string& id);
  // progress_json of what it has proven, or {"running": false}.
  std::string progress(const std::string& id);
  // Raises its stop flag: {"cancelled": whether one ran or waited}.
  std::string cancel(const std::string& id);

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Live>> named_;
};

// The search pool's threads yield the cores to the answers that read a database: the calling
// thread runs at nice 10 from then on (Linux: nice is per thread, and the threads it starts, a
// search's estimate among them, inherit it).
void run_in_background();

}  // namespace kalah
