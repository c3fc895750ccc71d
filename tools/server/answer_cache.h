// answer_cache.h: kalah serve's exact answers kept in memory, least recently used dropped first.
// Thread-safe.
#pragma once

#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace kalah {

class AnswerCache {
 public:
  explicit AnswerCache(size_t entries) : entries_(entries) {}

  // The answer kept under `key` (now the most recently used), if any.
  std::optional<std::string> find(const std::string& key);
  bool contains(const std::string& key);
  // Keeps `json` under `key` (the first answer kept stays), dropping the least recently used
  // past the limit.
  void put(const std::string& key, const std::string& json);

 private:
  using Entries = std::list<std::pair<std::string, std::string>>;
  const size_t entries_;
  std::mutex mutex_;
  Entries lru_;  // least recently used first
  std::unordered_map<std::string, Entries::iterator> index_;
};

}  // namespace kalah
