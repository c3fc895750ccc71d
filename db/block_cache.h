// block_cache.h: the decoded blocks of a database's layer files, shared by every thread.
//
// Decoded blocks live in slots[s][block], guarded by the mutex of shard block % shards, and are
// read under that lock (a single byte), so eviction can never free a block being read. Eviction
// is CLOCK per shard: a block read since the hand last passed gets another round. When the limit
// can hold every block ("resident") nothing is ever evicted: each layer is mapped from its decoded
// copy (db/decoded_layer.h) where one can be had, else decoded in place into an arena of its own.
// A resident block's state says where it is read (not yet known; the copy, its checksum checked;
// the arena, decoded from the layer file); once published (release) it is read without the lock,
// a probe costing two loads. A copy whose block fails its checksum is dropped: its blocks not yet
// checked are decoded into the arena instead, and the copy is removed for the next opener to
// rewrite. check_copies() notices a copy changed under the process after an answer.
//
// A layer searched where it lies (formats 2 and 3) has its busy blocks decoded into memory
// ("hot": one byte a board, a block to a slot of one arena in huge pages, the slots given in the
// order blocks turn hot) within what the limit leaves: a probe of a hot block is two loads (its
// slot, its value), not three dependent ones and a decode. A block turns hot after kHotAfter
// probes where it lies, so a short search decodes little and a long one probes memory
// (docs/design.md §6.3).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/huge_array.h"
#include "db/decoded_layer.h"
#include "db/layer_file.h"

namespace kalah {

class BlockCache {
 public:
  // layers[s - 1] is layer s; the files must outlive the cache. `limit_bytes` caps the decoded
  // values held. A resident cache maps decoded copies in `decoded_dir`'s decoded/ (none if
  // empty), writing those that are missing: a damaged block then throws here.
  BlockCache(const std::vector<std::unique_ptr<LayerFile>>& layers, size_t limit_bytes,
             const std::string& decoded_dir = {});
  ~BlockCache();
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // The encoded value at rank r of layer s, decoding its block if needed. Thread-safe.
  uint8_t value(int s, uint64_t r) const;
  // Starts loading that value into the CPU cache when its block is decoded already.
  void prefetch(int s, uint64_t r) const;
  // The later loads of a value read where it lies (LeafValues::prefetch_again).
  void prefetch_again(int s, uint64_t r, int stage) const {
    if (layer(s).in_place() && !hot(s, r / kBoardsPerBlock)) layer(s).prefetch_again(r, stage);
  }

  // Probes of a block where it lies before it is decoded into memory (docs/experiments.md, "Hot
  // blocks": decoding a block costs what about 1,000 probes save, yet a search of a few million
  // probes lost 4-6 % to decoding after 1,024 and 2,048).
  static constexpr uint32_t kHotAfter = 4096;
  // Decodes every block of the layers searched where they lie into memory now, in parallel, as
  // far as the limit allows (a benchmark's probes of memory).
  void heat_all() const;
  // The bytes the hot blocks may hold, and hold now.
  size_t hot_limit() const { return hot_limit_; }
  size_t hot_bytes() const {
    return slots_taken_.load(std::memory_order_relaxed) * kBoardsPerBlock;
  }

  // A count of the decoded copies found changed under this process; take it before an answer.
  uint64_t copy_epoch() const { return epoch_.load(); }
  // Throws DatabaseError when a mapped copy has changed (written in place, truncated) since
  // `since` = copy_epoch() was taken: values read meanwhile may be wrong. Such a copy is dropped
  // (its layer read from the file from then on) and removed. One fstat per mapped copy, and one
  // per layer file searched where it lies (check_written: all, or only `layer_read`, the one a
  // probe read). Thread-safe.
  void check_copies(uint64_t since, int layer_read = 0) const;
  // The part of check_copies() for the layer files searched where they lie (all, or layer
  // `only`): one found written to under the process is refused from then on (LayerFile::
  // refuse_changed) and the answer withheld. One fstat a layer.
  void check_written(uint64_t since, int only = 0) const;

 private:
  struct Slot {
    std::atomic<uint8_t*> data{nullptr};  // owned unless in an arena; freed on eviction
    bool referenced = false;
  };
  struct Shard {
    std::mutex mutex;
    std::vector<std::pair<int, uint64_t>> resident;  // (layer, block), the clock's ring
    size_t hand = 0;
    size_t bytes = 0;
  };
  static constexpr int kShards = 64;

  enum : uint8_t { kUnknown, kFromCopy, kDecoded };  // a resident block's state

  const LayerFile& layer(int s) const { return *layers_[s - 1]; }
  uint8_t resident_value(int s, uint64_t b, uint64_t r) const;

  // The state of a block of a layer searched where it lies: its probes counted up to kHotAfter,
  // then (once) decoded into a slot of the arena while probes go on reading the file, then hot
  // (kHot + its slot); cold when the limit is reached or the layer was refused.
  enum : uint32_t { kCold = 0x7FFFFFFE, kDecoding = 0x7FFFFFFF, kHot = 0x80000000 };
  // Block b of layer s's values in the arena, or null when it is not hot.
  const uint8_t* hot_block(int s, uint64_t b) const {
    if (!hot_limit_) return nullptr;
    const uint32_t h = heat_[s][b].load(std::memory_order_acquire);
    return h >= kHot ? arena_.data() + uint64_t{h - kHot} * kBoardsPerBlock : nullptr;
  }
  bool hot(int s, uint64_t b) const { return hot_block(s, b) != nullptr; }
  uint8_t in_place_value(int s, uint64_t r) const;
  // Decodes block b of layer s into a slot of the arena, when one is left, and publishes it.
  void heat_up(int s, uint64_t b) const;
  // A slot of the arena (reserved at the first), or -1 when the limit is reached.
  int64_t take_slot() const;

  // Checks no more blocks of layer s's copy, and removes it.
  void drop_copy(int s) const;
  // Evicts blocks of the shard until it holds at most its share, sparing block (s, b).
  void evict(Shard& shard, int s, uint64_t b) const;

  const std::vector<std::unique_ptr<LayerFile>>& layers_;
  const std::string decoded_dir_;
  size_t shard_count_;  // up to kShards, fewer for a small limit
  size_t shard_limit_;
  bool resident_ = false;
  size_t hot_limit_ = 0;  // bytes of hot blocks
  // Resident: [s] layer s's copy (null if none), its values, the arena, each block's state.
  std::vector<std::unique_ptr<DecodedLayer>> decoded_;
  std::vector<const uint8_t*> copy_values_;
  mutable std::vector<HugeArray<uint8_t>> arenas_;  // reserved on the layer's first decode
  mutable std::unique_ptr<std::once_flag[]> arena_once_;
  mutable std::vector<std::unique_ptr<std::atomic<uint8_t>[]>> state_;
  mutable std::unique_ptr<std::atomic<bool>[]> dropped_;    // [s]: the copy is no longer read
  mutable std::unique_ptr<std::atomic<bool>[]> rewritten_;  // [s]: a dropped copy written anew
  mutable std::atomic<uint64_t> epoch_{0};
  mutable std::vector<std::vector<Slot>> slots_;  // [s][block]; [0] unused
  // Hot blocks: [s][block] the state of the layers searched where they lie; the arena (address
  // space only until the first block), its slots and the slots given (changed under hot_mutex_).
  std::vector<std::unique_ptr<std::atomic<uint32_t>[]>> heat_;
  mutable HugeArray<uint8_t> arena_;
  uint64_t hot_slots_ = 0;
  mutable std::atomic<uint64_t> slots_taken_{0};
  mutable std::mutex hot_mutex_;
  mutable Shard shards_[kShards];
};

}  // namespace kalah
