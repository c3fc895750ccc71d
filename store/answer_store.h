// answer_store.h: exact analyses kept on disk beside a database, so that a position solved once
// is answered in milliseconds afterwards, also after a restart (docs/design.md §6).
//
// DIR/answers/kalah-m<M>-<capture>-<end>-<remainder>/ holds one small text file per position,
// named by a hash of the position, holding the rules, the position (so a hash collision is
// refused), the analysis and a checksum of all of it. A file appears whole or not at all
// (AtomicFile), so any number of processes read and write at once without locks; a damaged,
// truncated or foreign record is refused (and removed), and the caller computes the answer again.
// Answers are evicted least recently used first (a hit touches the file) once the directory
// holds more than its bound; records of the opening book (kalah book build) are never evicted.
// A store that cannot be written (a read-only directory) still answers what it holds.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "solver/analysis.h"

namespace kalah {

struct StoredAnswer {
  Analysis analysis;
  uint64_t nodes = 0;  // what finding it took, once
  double seconds = 0;
  bool book = false;  // written by the book build: never evicted
};

class AnswerStore {
 public:
  static constexpr uint64_t kDefaultBytes = uint64_t{256} << 20;

  AnswerStore(const std::string& db_dir, const Rules& rules, uint64_t max_bytes = kDefaultBytes);

  const std::string& dir() const { return dir_; }

  // The stored analysis of p, if a sound record holds it. Thread-safe.
  std::optional<StoredAnswer> find(const Position& p) const;

  // Keeps an exact analysis of p; false when it could not be written (the store is a cache:
  // that is never an error). Thread-safe.
  bool put(const Position& p, const StoredAnswer& answer);

  // The records' text: what put() writes and find() reads back (the tests damage it).
  std::string record(const Position& p, const StoredAnswer& answer) const;
  std::string path(const Position& p, bool book) const;

  // What the directory holds now: answers and book records, with the bytes they take on disk.
  struct Census {
    uint64_t answers = 0, answer_bytes = 0, book = 0, book_bytes = 0;
  };
  Census census() const;

  // Bytes the answers (not the book) take, as last counted; recounted by eviction.
  uint64_t answer_bytes() const { return answer_bytes_; }

 private:
  std::optional<StoredAnswer> read(const std::string& path, const Position& p) const;
  void evict();

  Rules rules_;
  std::string dir_;
  uint64_t max_bytes_;
  mutable std::atomic<uint64_t> answer_bytes_{0};
  mutable std::once_flag counted_;
  std::mutex evicting_;
};

// The store beside the database in db_dir for `rules`, or none when KALAH_STORE=off in the
// environment (the test suite, scripts/bench.sh: a search measured is a search).
std::unique_ptr<AnswerStore> open_answer_store(const std::string& db_dir, const Rules& rules);

}  // namespace kalah
