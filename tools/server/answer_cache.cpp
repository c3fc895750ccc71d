// answer_cache.cpp: kalah serve's cache of exact answers (tools/server/answer_cache.h).
#include "tools/server/answer_cache.h"

namespace kalah {

std::optional<std::string> AnswerCache::find(const std::string& key) {
  std::lock_guard lock(mutex_);
  const auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  lru_.splice(lru_.end(), lru_, it->second);  // most recently used
  return it->second->second;
}

bool AnswerCache::contains(const std::string& key) {
  std::lock_guard lock(mutex_);
  return index_.count(key) > 0;
}

void AnswerCache::put(const std::string& key, const std::string& json) {
  std::lock_guard lock(mutex_);
  if (index_.count(key)) return;
  lru_.emplace_back(key, json);
  index_[key] = std::prev(lru_.end());
  if (lru_.size() > entries_) {
    index_.erase(lru_.front().first);
    lru_.pop_front();
  }
}

}  // namespace kalah
