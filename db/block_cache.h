// block_cache.h: the decoded blocks of a database's layer files, shared by every thread.
//
// Decoded blocks live in slots[s][block], guarded by the mutex of shard block % shards, and are
// read under that lock (a single byte), so eviction can never free a block being read. Eviction
// is CLOCK per shard: a block read since the hand last passed gets another round. When the limit
// can hold every block ("resident") nothing is ever evicted: each layer is mapped from its decoded
// copy (db/decoded_layer.h) where one can be had, else decoded in place into an arena of its own,
// where a block once published (release) is read without the lock; either way the search's probes
// cost one load.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "db/decoded_layer.h"
#include "db/layer_file.h"
#include "solver/huge_array.h"

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

  const LayerFile& layer(int s) const { return *layers_[s - 1]; }
  uint8_t resident_value(int s, uint64_t b, uint64_t offset) const;
  // Evicts blocks of the shard until it holds at most its share, sparing block (s, b).
  void evict(Shard& shard, int s, uint64_t b) const;

  const std::vector<std::unique_ptr<LayerFile>>& layers_;
  size_t shard_count_;  // up to kShards, fewer for a small limit
  size_t shard_limit_;
  bool resident_ = false;
  std::vector<const uint8_t*> flat_;                // [s]: every value of layer s, or null
  std::vector<std::unique_ptr<DecodedLayer>> decoded_;  // resident: [s] maps layer s, or null
  mutable std::vector<HugeArray<uint8_t>> arenas_;  // resident, no decoded copy: [s] holds layer s
  mutable std::vector<std::vector<Slot>> slots_;    // [s][block]; [0] unused
  mutable Shard shards_[kShards];
};

}  // namespace kalah
