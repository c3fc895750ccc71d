// audit.h: an audit of an answer store (`kalah verify --answers`, docs/design.md §8): every
// record read back under the user's key and checked for sense, then held against the database
// when it holds the position, else against a search of its own within a time budget (the store
// left out of it). A record that fails is removed, so that the next question searches again.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "db/database.h"
#include "store/answer_store.h"

namespace kalah {

struct AnswerAudit {
  uint64_t records = 0;                 // files of the store, the book's included
  uint64_t by_database = 0;             // agreed with the database
  uint64_t by_search = 0;               // agreed with a search
  uint64_t unchecked = 0;               // sound, but their search did not end within the budget
  uint64_t other_keys = 0;              // another key's: left alone
  std::vector<std::string> unreadable;  // "FILE: why": cannot be read now, left alone
  std::vector<std::string> removed;     // "FILE: why", this key's and proven wrong

  bool ok() const { return removed.empty(); }
};

// Audits `store` (db's rules) with `seconds` of search a record at most; `progress` is told the
// records done and in all after each.
AnswerAudit audit_answers(const Database& db, const AnswerStore& store, double seconds,
                          const std::function<void(size_t done, size_t total)>& progress = {});

}  // namespace kalah
