// block_cache.cpp: decoding on demand, lock-free resident reads, CLOCK eviction.
#include "db/block_cache.h"

#include <tbb/parallel_for.h>

#include <algorithm>

#include "base/atomic_file.h"

namespace kalah {

BlockCache::BlockCache(const std::vector<std::unique_ptr<LayerFile>>& layers, size_t limit_bytes,
                       const std::string& decoded_dir)
    : layers_(layers),
      decoded_dir_(decoded_dir),
      // At least a MiB (16 blocks) per shard: a shard that holds a block or two thrashes as soon
      // as two threads share it.
      shard_count_(std::clamp<size_t>(limit_bytes >> 20, 1, kShards)),
      shard_limit_(std::max<size_t>(limit_bytes / shard_count_, 1)) {
  const int top = static_cast<int>(layers.size());
  slots_.resize(top + 1);
  uint64_t raw = 0;
  for (int s = 1; s <= top; ++s)
    if (!layer(s).in_place()) raw += layer(s).header().boards;  // format 1: decoded to be read
  resident_ = limit_bytes >= raw;
  uint64_t in_place_blocks = 0;
  heat_.resize(top + 1);
  for (int s = 1; s <= top; ++s)
    if (layer(s).in_place()) {
      in_place_blocks += layer(s).header().blocks;
      heat_[s] = std::make_unique<std::atomic<uint32_t>[]>(layer(s).header().blocks);
    }
  hot_slots_ =
      std::min<uint64_t>(resident_ ? (limit_bytes - raw) / kBoardsPerBlock : 0, in_place_blocks);
  hot_limit_ = hot_slots_ * kBoardsPerBlock;
  if (!resident_) {
    for (int s = 1; s <= top; ++s) slots_[s] = std::vector<Slot>(layer(s).header().blocks);
    return;
  }
  decoded_.resize(top + 1);
  copy_values_.assign(top + 1, nullptr);
  arenas_.resize(top + 1);
  state_.resize(top + 1);
  arena_once_ = std::make_unique<std::once_flag[]>(top + 1);
  if (!decoded_dir.empty()) remove_stale_temporaries(decoded_dir + "/decoded");
  dropped_ = std::make_unique<std::atomic<bool>[]>(top + 1);
  rewritten_ = std::make_unique<std::atomic<bool>[]>(top + 1);
  for (int s = 1; s <= top; ++s) {
    const LayerHeader& h = layer(s).header();
    if (!decoded_dir.empty() && !layer(s).in_place())
      decoded_[s] = DecodedLayer::open(layer(s), decoded_dir);
    if (decoded_[s]) copy_values_[s] = decoded_[s]->values();
    state_[s] = std::make_unique<std::atomic<uint8_t>[]>(h.blocks);
  }
}

BlockCache::~BlockCache() {
  for (auto& layer : slots_)
    for (auto& slot : layer) delete[] slot.data.load();
}

uint8_t BlockCache::resident_value(int s, uint64_t b, uint64_t r) const {
  // Checked or decoded under the lock: zstd scribbles ahead of its output while it works, so a
  // second decoder of the same block, or a reader, must never see a block being decoded.
  std::lock_guard lock(shards_[b % shard_count_].mutex);
  std::atomic<uint8_t>& state = state_[s][b];
  const uint8_t now = state.load(std::memory_order_relaxed);
  if (now == kFromCopy) return copy_values_[s][r];
  if (now == kDecoded) return arenas_[s][r];
  const DecodedLayer* copy = decoded_[s].get();
  if (copy && !dropped_[s].load()) {
    // dropped_ is read again: check_copies may have dropped the copy while this block was
    // checked, and resets blocks under their shards' locks, this one's included.
    if (copy->checked(b) && !dropped_[s].load()) {
      state.store(kFromCopy, std::memory_order_release);
      return copy_values_[s][r];
    }
    drop_copy(s);  // a damaged block: not one more is read from it (those checked are right)
  }
  // The arena is reserved the first time a block of the layer is decoded (reserved address space
  // counts against a ulimit -v), published with the block's state.
  std::call_once(arena_once_[s],
                 [&] { arenas_[s] = HugeArray<uint8_t>(layer(s).header().boards); });
  const uint32_t per_block = layer(s).header().boards_per_block;
  layer(s).read_block(b, arenas_[s].data() + b * per_block);
  state.store(kDecoded, std::memory_order_release);
  return arenas_[s][r];
}

void BlockCache::drop_copy(int s) const {
  if (!dropped_[s].exchange(true)) decoded_[s]->remove();
}

void BlockCache::check_copies(uint64_t since, int layer_read) const {
  for (const auto& l : layers_)
    if (l->faulted())
      throw DatabaseError(l->path() +
                          ": truncated while in use by another program; the answer is withheld "
                          "(rebuild or restore the file, then start again)");
  check_written(since, layer_read);
  std::string changed;
  if (resident_)
    for (size_t s = 1; s < decoded_.size(); ++s) {
      if (decoded_[s] && !dropped_[s].load() && decoded_[s]->changed()) {
        drop_copy(static_cast<int>(s));
        // Even its checked blocks may be wrong now: every one goes back to unknown.
        const uint64_t blocks = layer(static_cast<int>(s)).header().blocks;
        for (size_t i = 0; i < shard_count_; ++i) {
          std::lock_guard lock(shards_[i].mutex);
          for (uint64_t b = i; b < blocks; b += shard_count_)
            if (state_[s][b].load() == kFromCopy) state_[s][b].store(kUnknown);
        }
        ++epoch_;
        changed = DecodedLayer::path(decoded_dir_, layer(s).header().rules, static_cast<int>(s));
      }
      // A dropped copy is written again from the layer file, once, for the processes to come
      // (this one goes on reading the layer file).
      if (decoded_[s] && dropped_[s].load() && !rewritten_[s].exchange(true))
        DecodedLayer::open(layer(static_cast<int>(s)), decoded_dir_);
    }
  if (epoch_.load() == since) return;
  throw DatabaseError(
      (changed.empty() ? std::string("a layer file or a decoded copy") : changed) +
      ": changed while in use (written to or truncated by another program); the answer is "
      "withheld, and its layer is read from the layer file from now on (ask again)");
}

void BlockCache::check_written(uint64_t since, int only) const {
  // A layer file searched where it lies and written to under the process: refused from then on,
  // and every answer that may have read it withheld (the other layers still answer).
  const int top = static_cast<int>(layers_.size());
  if (only > top) return;  // a board above the top layer: no layer was read
  std::string written;
  for (int s = only ? only : 1; s <= (only ? only : top); ++s) {
    const LayerFile& l = layer(s);
    if (l.in_place() && !l.refused() && l.written_since_open()) {
      l.refuse_changed();
      // Its hot blocks may hold values decoded from the changed bytes: none is read again.
      if (hot_limit_)
        for (uint64_t b = 0; b < l.header().blocks; ++b) heat_[s][b].store(kCold);
      ++epoch_;
      written += (written.empty() ? "" : ", ") + l.path();
    }
  }
  if (!written.empty())
    throw DatabaseError(written +
                        ": changed while in use (written to by another program); the answer is "
                        "withheld, and the layer refused until kalah opens it again (restart)");
  if (only && epoch_.load() != since)
    throw DatabaseError("a layer file changed while in use; the answer is withheld (ask again)");
}

uint8_t BlockCache::in_place_value(int s, uint64_t r) const {
  if (!hot_limit_) return layer(s).value(r);
  const uint64_t b = r / kBoardsPerBlock;
  if (const uint8_t* values = hot_block(s, b)) return values[r % kBoardsPerBlock];
  // Counted by compare-and-swap, so that a count never overwrites a state; a count lost to
  // another thread only delays the decoding.
  std::atomic<uint32_t>& heat = heat_[s][b];
  uint32_t h = heat.load(std::memory_order_relaxed);
  if (h < kHotAfter) heat.compare_exchange_weak(h, h + 1, std::memory_order_relaxed);
  if (h == kHotAfter) {
    heat_up(s, b);
    if (const uint8_t* values = hot_block(s, b)) return values[r % kBoardsPerBlock];
  }
  return layer(s).value(r);
}

int64_t BlockCache::take_slot() const {
  std::lock_guard lock(hot_mutex_);
  if (slots_taken_.load() == hot_slots_) return -1;
  if (!arena_.data()) arena_ = HugeArray<uint8_t>(hot_limit_);  // address space, not memory
  return static_cast<int64_t>(slots_taken_++);
}

void BlockCache::heat_up(int s, uint64_t b) const {
  std::atomic<uint32_t>& heat = heat_[s][b];
  uint32_t h = kHotAfter;
  if (!heat.compare_exchange_strong(h, kDecoding)) return;  // another thread decodes it
  int64_t slot = -1;
  try {
    slot = take_slot();
    if (slot >= 0) layer(s).read_block(b, arena_.data() + slot * uint64_t{kBoardsPerBlock});
  } catch (...) {  // damaged or refused (the probe where it lies says so too), or no arena
    heat.store(kCold);
    if (slot < 0) return;
    throw;
  }
  // Not when the layer was refused meanwhile (check_written cooled it): the slot stays unread.
  h = kDecoding;
  heat.compare_exchange_strong(h, slot < 0 ? kCold : kHot + static_cast<uint32_t>(slot),
                               std::memory_order_release);
}

void BlockCache::heat_all() const {
  if (!hot_limit_) return;
  for (int s = 1; s < static_cast<int>(heat_.size()); ++s) {
    if (!heat_[s]) continue;
    tbb::parallel_for(uint64_t{0}, layer(s).header().blocks, [&](uint64_t b) {
      uint32_t h = heat_[s][b].load();
      if (h < kHotAfter && heat_[s][b].compare_exchange_strong(h, kHotAfter)) heat_up(s, b);
    });
  }
}

uint8_t BlockCache::value(int s, uint64_t r) const {
  if (layer(s).in_place()) return in_place_value(s, r);
  if (resident_) {
    const uint64_t b = r / kBoardsPerBlock;
    const uint8_t state = state_[s][b].load(std::memory_order_acquire);
    if (state == kFromCopy) return copy_values_[s][r];
    if (state == kDecoded) return arenas_[s][r];
    return resident_value(s, b, r);
  }
  const uint32_t per_block = layer(s).header().boards_per_block;
  const uint64_t b = r / per_block;
  Shard& shard = shards_[b % shard_count_];
  Slot& slot = slots_[s][b];
  {
    std::lock_guard lock(shard.mutex);
    if (const uint8_t* data = slot.data.load(std::memory_order_relaxed)) {
      slot.referenced = true;
      return data[r % per_block];
    }
  }
  // Decode outside the lock, into a buffer of our own; if another thread got there first, its
  // copy stays.
  const uint64_t size = layer(s).block_boards(b);
  auto owned = std::make_unique_for_overwrite<uint8_t[]>(size);
  layer(s).read_block(b, owned.get());
  const uint8_t value = owned[r % per_block];
  std::lock_guard lock(shard.mutex);
  if (slot.data.load(std::memory_order_relaxed)) return value;
  slot.data.store(owned.release(), std::memory_order_release);
  shard.resident.emplace_back(s, b);
  shard.bytes += size;
  evict(shard, s, b);
  return value;
}

void BlockCache::evict(Shard& shard, int s, uint64_t b) const {
  while (shard.bytes > shard_limit_ && shard.resident.size() > 1) {
    if (shard.hand >= shard.resident.size()) shard.hand = 0;
    const auto [vs, vb] = shard.resident[shard.hand];
    Slot& victim = slots_[vs][vb];
    if (victim.referenced || (vs == s && vb == b)) {
      victim.referenced = false;
      ++shard.hand;
      continue;
    }
    delete[] victim.data.exchange(nullptr, std::memory_order_relaxed);
    shard.bytes -= layer(vs).block_boards(vb);
    shard.resident[shard.hand] = shard.resident.back();
    shard.resident.pop_back();
  }
}

void BlockCache::prefetch(int s, uint64_t r) const {
  if (layer(s).in_place()) {
    if (const uint8_t* values = hot_block(s, r / kBoardsPerBlock))
      return __builtin_prefetch(values + r % kBoardsPerBlock);
    return layer(s).prefetch(r);
  }
  if (resident_) {
    const uint8_t state = state_[s][r / kBoardsPerBlock].load(std::memory_order_relaxed);
    if (state == kFromCopy) __builtin_prefetch(copy_values_[s] + r);
    if (state == kDecoded) __builtin_prefetch(arenas_[s].data() + r);
    return;
  }
  const uint32_t per_block = layer(s).header().boards_per_block;
  if (const uint8_t* data = slots_[s][r / per_block].data.load(std::memory_order_acquire))
    __builtin_prefetch(data + r % per_block);
}

}  // namespace kalah
