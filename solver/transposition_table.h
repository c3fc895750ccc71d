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
#include <vector>

#include "base/huge_array.h"
#include "game/rules.h"

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

  // A table starts at 1 MiB (or max_bytes if less) and doubles, up to max_bytes, once the
  // entries it evicted since it last grew were worth kLostWork nodes per entry it holds (an
  // entry's work says what its bounds cost). It grows in place: max_bytes are reserved, and
  // growing splits each bucket in use into the untouched buckets after it, keeping every entry. A
  // private table grows by itself. A shared one cannot while threads use it: its searches report
  // the work they evicted (add_lost_work), growth_wanted() says when it should grow, and the
  // caller, once every thread is out of the table, grows it (grow_shared and split).
  //
  // Why not grow as soon as the table is full: fresh memory is dear (the kernel zeroes it on
  // first touch), and near a database most entries are cheap to redo, so a table there stops
  // growing early; a search without a database, whose entries are deep subtrees, evicts more
  // work and still grows (docs/design.md §7 gives the figures behind kLostWork).
  static constexpr uint64_t kLostWork = 2;

  explicit TranspositionTable(size_t max_bytes, bool shared = false);
  bool shared() const { return shared_; }
  // Copies the entry for b into `out`; false when there is none.
  bool find(const Board& b, Entry& out) const;
  // Starts loading b's bucket into the cache, for a find() soon after.
  void prefetch(const Board& b) const { __builtin_prefetch(&bucket(b)); }
  // Records bounds for b (merged with what is known), evicting the cheaper entry of its bucket.
  // Returns the work evicted (work_of).
  uint64_t store(const Board& b, int lo, int hi, int move, uint64_t nodes);

  // Shared tables: a thread starts (enter, which returns the work it evicted) or ends (leave)
  // searching b; busy(b) says whether any thread is searching it. An entry evicted meanwhile
  // loses its count: busy() only orders work, so a wrong answer costs time, never correctness.
  uint64_t enter(const Board& b);
  void leave(const Board& b);
  bool busy(const Board& b) const;

  size_t capacity() const { return 2 * (mask_ + 1); }

  // Checkpoints (parallel/parallel_search.h), with no thread in the table. The entries with
  // bounds, costliest first when cut to `most`: those whose work is at least the least work
  // that keeps them within `most`.
  std::vector<Entry> costliest(size_t most) const;
  // Grows (up to the limit) to hold `entries` at about half load, then records each entry's
  // bounds as store() would.
  void restore(const std::vector<Entry>& entries);
  size_t bytes_in_use() const { return (mask_ + 1) * sizeof(Bucket); }

  // Shared tables: `count` more nodes of work evicted (a thread reports them in batches).
  void add_lost_work(uint64_t count) {
    if (should_grow(lost_shared_.fetch_add(count, std::memory_order_relaxed) + count))
      grow_wanted_.store(true, std::memory_order_relaxed);
  }
  bool growth_wanted() const { return grow_wanted_.load(std::memory_order_relaxed); }
  // Doubles a shared table's buckets in use, keeping every entry: grow_shared() returns the
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
  uint64_t insert(const Entry& entry);
  // Whether `lost` work evicted since the last growth calls for one (and there is room).
  bool should_grow(uint64_t lost) const {
    return lost > kLostWork * capacity() && mask_ + 1 < buckets_.size();
  }
  // The nodes an entry's bounds cost, roughly.
  static uint64_t work_of(const Entry& e) { return e.work ? uint64_t{1} << (e.work - 1) : 0; }
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
  uint64_t lost_ = 0;          // work evicted since the last growth (private tables)
  bool shared_;
  std::atomic<uint64_t> lost_shared_{0};  // shared tables: work evicted since the last growth
  std::atomic<bool> grow_wanted_{false};
};

}  // namespace kalah
