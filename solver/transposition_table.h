// transposition_table.h: proven bounds on the V of boards already searched (docs/design.md §7).
//
// Keyed by the board alone: V depends on the pits only, and play is acyclic (docs/design.md §4),
// so an entry is valid on every path to its board. Each entry keeps a lower and an upper bound,
// merged with what a new search proves, never overwritten by weaker ones: a small or clashing
// table slows the search but never changes a result.
//
// A shared table (one for all threads of a search) has its full size from the start and a
// spinlock per bucket (in the bucket's cache line: no extra miss); entries are copied out under
// it. It also counts, per entry, the threads searching that board, so that a thread can leave a
// board others are busy with for later (ABDADA, docs/design.md §7).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "solver/huge_array.h"
#include "solver/rules.h"

namespace kalah {

class TranspositionTable {
 public:
  struct Entry {
    Board key;
    int16_t lo, hi;  // proven bounds on V
    int8_t move;     // best pit found, -1 if none
    uint8_t work;    // log2 of the nodes spent: cheap entries are replaced first
    uint8_t busy;    // shared tables: threads searching this board now
  };

  // A private table starts small and grows by rehashing up to max_bytes as it fills, so a small
  // solve touches little memory while a large one gets the whole budget. A shared one is
  // max_bytes from the start (its pages are touched as it fills): growing it would stop every
  // thread, and starting it small and growing between MTD(f) tests measured 1.5-6x slower.
  explicit TranspositionTable(size_t max_bytes, bool shared = false);
  bool shared() const { return shared_; }
  // Copies the entry for b into `out`; false when there is none.
  bool find(const Board& b, Entry& out) const;
  // Starts loading b's bucket into the cache, for a find() soon after.
  void prefetch(const Board& b) const { __builtin_prefetch(&bucket(b)); }
  // Records bounds for b (merged with what is known), evicting the cheaper entry of its bucket.
  void store(const Board& b, int lo, int hi, int move, uint64_t nodes);

  // Shared tables: a thread starts (enter) or ends (leave) searching b; busy(b) says whether
  // any thread is searching it. An entry evicted meanwhile loses its count: busy() only orders
  // work, so a wrong answer costs time, never correctness.
  void enter(const Board& b);
  void leave(const Board& b);
  bool busy(const Board& b) const;

  size_t capacity() const { return 2 * buckets_.size(); }

 private:
  struct alignas(64) Bucket {  // one cache line: a probe costs at most one miss
    Entry e[2];                // a zero key is an empty entry: fresh pages are an empty table
    mutable std::atomic<uint8_t> lock;  // shared tables only
  };
  // Holds a bucket's lock while it lives, when the table is shared.
  class Lock {
   public:
    Lock(const TranspositionTable& t, const Bucket& k);
    ~Lock();

   private:
    std::atomic<uint8_t>* lock_;
  };
  const Bucket& bucket(const Board& b) const { return buckets_[hash(b) & (buckets_.size() - 1)]; }
  Bucket& bucket(const Board& b) { return buckets_[hash(b) & (buckets_.size() - 1)]; }
  static uint64_t hash(const Board& b);
  void insert(const Entry& entry);
  // The entry of k to replace: the cheaper one that no thread is searching, if any.
  static Entry* victim(Bucket& k);
  // b's entry in its bucket k, or nullptr.
  static Entry* entry_of(Bucket& k, const Board& b) {
    return k.e[0].key == b ? &k.e[0] : k.e[1].key == b ? &k.e[1] : nullptr;
  }
  static const Entry* entry_of(const Bucket& k, const Board& b) {
    return entry_of(const_cast<Bucket&>(k), b);
  }
  void grow();

  HugeArray<Bucket> buckets_;  // a power of two of them
  size_t max_buckets_;
  size_t inserted_ = 0;  // new entries since the last growth (private tables)
  bool shared_;
};

}  // namespace kalah
