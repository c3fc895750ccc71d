// searches.cpp: kalah serve's search admission and named searches (tools/server/searches.h).
#include "tools/server/searches.h"

#include <sys/resource.h>
#include <unistd.h>

#include "base/units.h"
#include "query/json_parts.h"

namespace kalah {

void run_in_background() {
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);  // a thread's own: never fails
}

bool SearchAdmission::enter(StopFlag* stop) {
  std::lock_guard lock(mutex_);
  if (closed_) return false;
  running_.insert(stop);
  return true;
}

void SearchAdmission::leave(StopFlag* stop) {
  std::lock_guard lock(mutex_);
  running_.erase(stop);
}

bool SearchAdmission::acquire(const StopFlag& stop, Clock::time_point deadline) {
  if (slots_.try_acquire()) return true;
  while (!stop.raised() && Clock::now() + kLeast < deadline)
    if (slots_.try_acquire_until(
            std::min(Clock::now() + std::chrono::milliseconds(50), deadline - kLeast)))
      return true;
  return false;
}

void SearchAdmission::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  for (StopFlag* stop : running_) stop->raise(StopReason::kStop);
}

void NamedSearches::Live::report(const QueryProgress& p) {
  std::lock_guard lock(mutex);
  if (p.search.total) so_far = p.search;
  if (p.estimate) estimate = p.estimate;
}

std::shared_ptr<NamedSearches::Live> NamedSearches::add(const std::string& id, const Rules& rules,
                                                        const Position& position, StopFlag* stop) {
  auto live = std::make_shared<Live>();
  live->rules = rules;
  live->position = position;
  live->stop = stop;
  std::lock_guard lock(mutex_);
  named_[id] = live;
  return live;
}

void NamedSearches::remove(const std::string& id, const StopFlag* stop) {
  std::lock_guard lock(mutex_);
  const auto it = named_.find(id);
  if (it != named_.end() && it->second->stop == stop) named_.erase(it);
}

std::shared_ptr<NamedSearches::Live> NamedSearches::find(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto it = named_.find(id);
  return it == named_.end() ? nullptr : it->second;
}

std::string NamedSearches::progress(const std::string& id) {
  const std::shared_ptr<Live> live = find(id);
  if (!live) return kalah_json("serve").add("search", id).add("running", false).str();
  std::lock_guard lock(live->mutex);
  return progress_json("serve", live->rules, live->position,
                       live->so_far ? &*live->so_far : nullptr,
                       live->estimate ? &*live->estimate : nullptr)
      .add("search", id)
      .add("seconds", seconds_since(live->start))
      .str();
}

std::string NamedSearches::cancel(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto it = named_.find(id);
  if (it != named_.end()) it->second->stop->raise(StopReason::kStop);
  return kalah_json("serve").add("search", id).add("cancelled", it != named_.end()).str();
}

}  // namespace kalah
