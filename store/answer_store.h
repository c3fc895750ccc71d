// answer_store.h: exact analyses kept on disk beside a database, so that a position solved once
// is answered in milliseconds afterwards, also after a restart (docs/design.md §7, "What
// searches keep").
//
// DIR/answers/kalah-m<M>-<capture>-<end>-<remainder>/ holds one small text file per position and
// key, <hash of the position>.<key id>.answer (or .book), holding the rules, the position (so a
// hash collision is refused), the analysis and a keyed hash of all of it (store/keyed_hash.h): a
// record kalah did not write with the user's key is never believed. Several users (several keys)
// share a directory without touching each other's records: each reads and writes only the names
// of its own key (and reads, never removes, the <hash>.answer names of format 2's first release). A
// record is also checked for sense (the value is the best move's, every move's value lies within
// the seeds in play, its turn starts with its pit, the best line starts with a best move). A file
// appears whole or not at all (AtomicFile), so any number of processes read and write at once
// without locks. A record of this key read whole and proven damaged, forged, truncated or foreign
// is refused and removed, with a note (a book record is kept: its name keeps the position in the
// book, and the next answer found is written there), and the caller computes the answer again; one
// that cannot be read now (too many open files, a FIFO at its name) is not a verdict: it is left
// as it is, and the answer computed. Answers are evicted least recently used first (a hit touches
// the file) once the directory holds more than its bound; records of the opening book (kalah book
// build) are never evicted. A store that cannot be written (a read-only directory) still answers
// what it holds.
//
// Record format 2 (1 had an unkeyed checksum; its records are refused and recomputed):
//
//   kalah-answer 2
//   rules capture=standard end=immediate remainder=owner
//   pits 6
//   position 4,4,4,4,4,4,0,4,4,4,4,4,4,0,S        absolute
//   value 8                                          final margin for the mover
//   board_value 8
//   finished 0
//   moves 1:-14:1 2:-8:2 3:8:3-6 ...                 pit:value:turn, every legal move
//   line 3-6 2-1 ...                                 the best line's turns
//   nodes 90800000
//   seconds 21.500000
//   book 0
//   mac <64 hex digits>                              keyed BLAKE2b-256 of every byte above
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "solver/analysis.h"
#include "store/keyed_hash.h"

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

  // `note` is told, a line each, of a record refused and of the first record written (where the
  // answers go); by default on stderr.
  using Note = std::function<void(const std::string&)>;
  AnswerStore(const std::string& db_dir, const Rules& rules,
              const RecordKey& key = RecordKey::user(), Note note = {},
              uint64_t max_bytes = kDefaultBytes);

  const std::string& dir() const { return dir_; }
  const Rules& rules() const { return rules_; }

  // The stored analysis of p, if a sound record holds it (one that is not is removed, with a
  // note; a book record is kept, so that p stays in the book). Thread-safe.
  std::optional<StoredAnswer> find(const Position& p) const;
  // Whether p is in the opening book: this key's book record of it exists, sound or not (put()
  // then writes p's answer as the book's).
  bool in_book(const Position& p) const;

  // What reading a record found. Only kBad, a record of this key read whole and proven wrong,
  // may be removed: the others are left as they are.
  enum class Verdict {
    kSound,
    kMissing,     // no record at the name
    kUnreadable,  // it cannot be read now, or is no regular file
    kOtherKey,    // its keyed hash is another key's (or its name is): not ours to judge
    kBad,         // this key's, read whole, and damaged, forged or nonsense
  };
  // Every record in the store, of every key (for an audit: kalah verify --answers), and one
  // file's: its position and analysis, or, in `why`, what is wrong with it, `verdict` which.
  std::vector<std::string> files() const;
  std::optional<std::pair<Position, StoredAnswer>> read_file(const std::string& path,
                                                             std::string& why,
                                                             Verdict* verdict = nullptr) const;
  // A record's text, as read_file reads it (the fuzzer's entry).
  std::optional<std::pair<Position, StoredAnswer>> parse(const std::string& text,
                                                         std::string& why) const;
  // Removes a record of this key (an audit found it wrong); another key's is left alone.
  void remove(const std::string& path) const;
  // Whether the file at `path` has this key's name.
  bool ours(const std::string& path) const;

  // Keeps an exact analysis of p; false when it could not be written (the store is a cache:
  // that is never an error). Thread-safe.
  bool put(const Position& p, const StoredAnswer& answer);

  // The records' text: what put() writes and find() reads back (the tests damage it).
  std::string record(const Position& p, const StoredAnswer& answer) const;
  std::string path(const Position& p, bool book) const;
  // Where format 2's first release kept it, whatever the key (read, never written or removed).
  std::string legacy_path(const Position& p, bool book) const;

  // What the directory holds now: answers and book records, with the bytes they take on disk.
  struct Census {
    uint64_t answers = 0, answer_bytes = 0, book = 0, book_bytes = 0;
  };
  Census census() const;
  static Census census(const std::string& db_dir, const Rules& rules);  // without a key

  // Bytes the answers (not the book) take, as last counted; recounted by eviction.
  uint64_t answer_bytes() const { return answer_bytes_; }

 private:
  void evict();

  Rules rules_;
  std::string dir_;
  const RecordKey& key_;
  Note note_;
  uint64_t max_bytes_;
  mutable std::once_flag told_;        // where the answers go, at the first write
  mutable std::once_flag told_other_;  // that other keys' records are left alone
  mutable std::atomic<uint64_t> answer_bytes_{0};
  mutable std::once_flag counted_;
  std::mutex evicting_;
};

// The store beside the database in db_dir for `rules`, under the user's key, or none when
// KALAH_STORE=off in the environment (the test suite, scripts/bench.sh: a search measured is a
// search) or when there is no key (a note says why). Any other value of KALAH_STORE but "on" is
// std::invalid_argument.
std::unique_ptr<AnswerStore> open_answer_store(const std::string& db_dir, const Rules& rules,
                                               AnswerStore::Note note = {});

}  // namespace kalah
