// database.h: reading a database directory: the layers of one rule variant, probed by board.
//
// Thread safety: every const member function may be called from any number of threads at once.
// probe() keeps "not in the database" (a board above the top layer) apart from values; a damaged
// block is an exception naming the file, never a value.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db/block_cache.h"
#include "db/file_names.h"
#include "db/layer_file.h"
#include "db/rank.h"
#include "game/leaf_values.h"

namespace kalah {

class Database : public LeafValues {
 public:
  static constexpr size_t kDefaultCacheBytes = size_t{256} << 20;
  // The cache for a search, which touches nearly every block: half the usable memory (shared
  // by the processes of a search over several on this machine). A
  // database that fits is decoded once and read without locks; a bigger one is evicted from,
  // slower but never more memory than this.
  static size_t search_cache_bytes();

  // Opens layers 1..S of `rules` in dir: all must be present (no gaps) and their headers and
  // indexes valid. Throws DatabaseError naming the directory or file. `cache_bytes` caps the
  // decoded blocks held (db/block_cache.h).
  Database(const std::string& dir, const Rules& rules, size_t cache_bytes = kDefaultCacheBytes);

  const Rules& rules() const { return rules_; }
  int max_seeds() const override { return static_cast<int>(layers_.size()); }
  const LayerFile& layer(int s) const { return *layers_[s - 1]; }
  const Ranker& ranker() const { return ranker_; }

  // V of b, or nothing when b has more seeds than the top layer.
  std::optional<int> probe(const Board& b) const;
  // V of b, which must have at most max_seeds() seeds (the search's leaf interface).
  int value(const Board& b) const override { return *probe(b); }
  // Prefetches b's value when its block is decoded already, and returns b's rank for value_at
  // (b is not finished and has at most max_seeds() seeds).
  uint64_t prefetch(const Board& b) const override {
    const uint64_t r = ranker_.rank(b);
    cache_->prefetch(seeds(b), r);
    return r;
  }
  int prefetch_stages() const override { return prefetch_stages_; }
  void prefetch_again(int seeds, uint64_t rank, int stage) const override {
    cache_->prefetch_again(seeds, rank, stage);
  }
  int value_at(const Board& b, uint64_t rank) const override;
  // A count of the decoded copies found changed under this process: take it before an answer,
  // and pass it to check_copies() after (db/block_cache.h). Thread-safe.
  uint64_t copy_epoch() const { return cache_->copy_epoch(); }
  // Throws DatabaseError when a decoded copy changed under the answer given since copy_epoch()
  // was `since`; one fstat per mapped copy.
  void check_copies(uint64_t since, int layer_read = 0) const {
    cache_->check_copies(since, layer_read);
  }
  // The same for layer s's file alone, when it is searched where it lies (one fstat).
  void check_layer(uint64_t since, int s) const { cache_->check_written(since, s); }
  // The directory the layers are in.
  const std::string& dir() const { return dir_; }
  // Decodes every block of the layers searched where they lie into memory now, as far as the
  // cache's limit allows; a search does so by itself for the blocks it probes most
  // (db/block_cache.h). Throws DatabaseError on a damaged block.
  void decode_in_memory() const { cache_->heat_all(); }
  // The bytes decode_in_memory() would fill: the layers searched where they lie, within the limit.
  size_t decodable_bytes() const { return cache_->hot_limit(); }
  // The bytes of memory that blocks decoded so hold.
  size_t decoded_in_memory() const { return cache_->hot_bytes(); }
  // The encoded value at rank r of layer s (1 <= s <= max_seeds()).
  uint8_t encoded(int s, uint64_t r) const { return cache_->value(s, r); }

 private:
  std::string dir_;
  Rules rules_;
  Ranker ranker_;
  // Views (db/value_lines.h) of more bytes than this get a prefetch stage of their own.
  static constexpr uint64_t kViewsInCache = uint64_t{4} << 20;
  std::vector<std::unique_ptr<LayerFile>> layers_;
  int prefetch_stages_ = 0;
  std::unique_ptr<BlockCache> cache_;
};

// An answer's watch over the decoded copies it reads: made before the answer, check() after it
// throws DatabaseError when a copy changed in between (Database::check_copies). Without a
// database it checks nothing.
class CopyWatch {
 public:
  explicit CopyWatch(const Database* db) : db_(db), epoch_(db ? db->copy_epoch() : 0) {}
  void check() const {
    if (db_) db_->check_copies(epoch_);
  }

 private:
  const Database* db_;
  uint64_t epoch_;
};

}  // namespace kalah
