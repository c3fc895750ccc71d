// database.h: reading a database directory: the layers of one rule variant, probed by board.
//
// Thread safety: every const member function may be called from any number of threads at once.
// probe() keeps "not in the database" (a board above the top layer) apart from values; a damaged
// block is an exception naming the file, never a value.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "db/layer_file.h"
#include "solver/rank.h"

namespace kalah {

// The variants found in a directory, each with the layers present (not yet validated).
struct VariantFiles {
  Rules rules;
  std::vector<int> layers;  // ascending
};
std::vector<VariantFiles> list_variants(const std::string& dir);

class Database {
 public:
  static constexpr size_t kDefaultCacheBytes = size_t{256} << 20;

  // Opens layers 1..S of `rules` in dir: all must be present (no gaps) and their headers and
  // indexes valid. Throws DatabaseError naming the directory or file.
  Database(const std::string& dir, const Rules& rules, size_t cache_bytes = kDefaultCacheBytes);

  const Rules& rules() const { return rules_; }
  int max_seeds() const { return static_cast<int>(layers_.size()); }
  const LayerFile& layer(int s) const { return *layers_[s - 1]; }
  const Ranker& ranker() const { return ranker_; }

  // V of b, or nothing when b has more seeds than the top layer.
  std::optional<int> probe(const Board& b) const;
  // The encoded value at rank r of layer s (1 <= s <= max_seeds()).
  uint8_t encoded(int s, uint64_t r) const;

 private:
  using Block = std::shared_ptr<const std::vector<uint8_t>>;
  Block block(int s, uint64_t b) const;

  struct Shard {
    std::mutex mutex;
    std::list<uint64_t> lru;  // most recent first
    std::unordered_map<uint64_t, std::pair<Block, std::list<uint64_t>::iterator>> blocks;
    size_t bytes = 0;
  };
  static constexpr int kShards = 16;

  Rules rules_;
  std::vector<std::unique_ptr<LayerFile>> layers_;
  Ranker ranker_;
  size_t shard_limit_;
  mutable Shard shards_[kShards];
};

}  // namespace kalah
