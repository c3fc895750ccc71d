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

  // A table starts at 1 MiB and grows up to max_bytes as it fills, so that a small solve
  // touches little fresh memory (which the kernel must zero: a 1.5 GiB table cost more than
  // the whole Kalah(6,4) search with a 24-seed database) while a large one gets the whole budget.
  // It grows in place: max_bytes are reserved, and growing splits each bucket in use into the
  // untouched buckets after them, keeping every entry. A private table grows by itself (doubling
  // as it fills). A shared one cannot while threads use it: its searches report their nodes
  // (add_work), growth_wanted() says when they exceed what it holds, and the caller, once every
  // thread is out of the table, grows it (grow_shared and split).
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

  size_t capacity() const { return 2 * (mask_ + 1); }

  // Shared tables: `nodes` more nodes searched (a thread reports them in batches).
  void add_work(uint64_t nodes) {
    if (mask_ + 1 < buckets_.size() &&
        work_.fetch_add(nodes, std::memory_order_relaxed) + nodes > capacity())
      grow_wanted_.store(true, std::memory_order_relaxed);
  }
  bool growth_wanted() const { return grow_wanted_.load(std::memory_order_relaxed); }
  // Quadruples a shared table's buckets in use, keeping every entry: grow_shared() returns the
  // buckets in use until now, n, and the caller then moves their entries with split() over
  // [0, n), in parallel if it likes. No thread may use the table meanwhile.
  size_t grow_shared();
  void split(size_t first, size_t last);

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
  const Bucket& bucket(const Board& b) const { return buckets_[hash(b) & mask_]; }
  Bucket& bucket(const Board& b) { return buckets_[hash(b) & mask_]; }
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
  // Uses `factor` times the buckets (up to all reserved); returns how many were in use.
  size_t widen(size_t factor);
  static constexpr size_t kInitialBytes = size_t{1} << 20;

  HugeArray<Bucket> buckets_;  // a power of two of them, reserved: the most the table may use
  size_t mask_ = 0;            // buckets in use - 1
  size_t inserted_ = 0;        // new entries since the last growth (private tables)
  bool shared_;
  std::atomic<uint64_t> work_{0};  // shared tables: nodes since the last growth
  std::atomic<bool> grow_wanted_{false};
};

}  // namespace kalah
