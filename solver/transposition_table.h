// transposition_table.h: proven bounds on the V of boards already searched (docs/design.md §7).
//
// Keyed by the board alone: V depends on the pits only, and play is acyclic (docs/design.md §4),
// so an entry is valid on every path to its board. Each entry keeps a lower and an upper bound,
// merged with what a new search proves, never overwritten by weaker ones: a small or clashing
// table slows the search but never changes a result.
#pragma once

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
  };

  // The table starts small and grows by rehashing up to max_bytes as it fills, so a small solve
  // touches little memory while a large one gets the whole budget.
  explicit TranspositionTable(size_t max_bytes);
  // The entry for b, or nullptr. Valid until the next store().
  const Entry* find(const Board& b) const;
  // Starts loading b's bucket into the cache, for a find() soon after.
  void prefetch(const Board& b) const { __builtin_prefetch(&bucket(b)); }
  // Records bounds for b (merged with what is known), evicting the cheaper entry of its bucket.
  void store(const Board& b, int lo, int hi, int move, uint64_t nodes);
  size_t capacity() const { return 2 * buckets_.size(); }

 private:
  struct alignas(64) Bucket {  // one cache line: a probe costs at most one miss
    Entry e[2];                // a zero key is an empty entry: fresh pages are an empty table
  };
  const Bucket& bucket(const Board& b) const { return buckets_[hash(b) & (buckets_.size() - 1)]; }
  Bucket& bucket(const Board& b) { return buckets_[hash(b) & (buckets_.size() - 1)]; }
  static uint64_t hash(const Board& b);
  void insert(const Entry& entry);
  void grow();

  HugeArray<Bucket> buckets_;  // a power of two of them
  size_t max_buckets_;
  size_t inserted_ = 0;  // new entries since the last growth
};

}  // namespace kalah
