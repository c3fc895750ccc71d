// database.h: reading a database directory: the layers of one rule variant, probed by board.
//
// Thread safety: every const member function may be called from any number of threads at once.
// probe() keeps "not in the database" (a board above the top layer) apart from values; a damaged
// block is an exception naming the file, never a value.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "db/big_array.h"
#include "db/layer_file.h"
#include "solver/rank.h"
#include "solver/search.h"

namespace kalah {

// The variants found in a directory, each with the layers present (not yet validated).
struct VariantFiles {
  Rules rules;
  std::vector<int> layers;  // ascending
};
std::vector<VariantFiles> list_variants(const std::string& dir);

class Database : public LeafValues {
 public:
  static constexpr size_t kDefaultCacheBytes = size_t{256} << 20;

  // Opens layers 1..S of `rules` in dir: all must be present (no gaps) and their headers and
  // indexes valid. Throws DatabaseError naming the directory or file.
  Database(const std::string& dir, const Rules& rules, size_t cache_bytes = kDefaultCacheBytes);
  ~Database() override;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  const Rules& rules() const { return rules_; }
  int max_seeds() const override { return static_cast<int>(layers_.size()); }
  const LayerFile& layer(int s) const { return *layers_[s - 1]; }
  const Ranker& ranker() const { return ranker_; }

  // V of b, or nothing when b has more seeds than the top layer.
  std::optional<int> probe(const Board& b) const;
  // V of b, which must have at most max_seeds() seeds (the search's leaf interface).
  int value(const Board& b) const override { return *probe(b); }
  // Prefetches b's value when its block is decoded already (b has at most max_seeds() seeds).
  void prefetch(const Board& b) const override;
  // The encoded value at rank r of layer s (1 <= s <= max_seeds()).
  uint8_t encoded(int s, uint64_t r) const;

 private:
  // Decoded blocks live in slots[s][block], guarded by the mutex of shard block % kShards, and
  // are read under that lock (a single byte), so eviction can never free a block being read.
  // Eviction is CLOCK per shard: a block probed since the hand last passed gets another round.
  // When the cache can hold the whole database nothing is ever evicted, and a block once
  // published (release) is read without the lock: the search's probes then cost one load.
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

  Rules rules_;
  std::vector<std::unique_ptr<LayerFile>> layers_;
  Ranker ranker_;
  size_t shard_limit_;
  bool resident_ = false;  // the cache holds every block: no eviction, lock-free reads
  mutable std::vector<BigArray> arenas_;  // resident: [s] holds layer s, blocks decoded in place
  mutable std::vector<std::vector<Slot>> slots_;  // [s][block]; [0] unused
  mutable Shard shards_[kShards];
};

}  // namespace kalah
