// block_cache.cpp: decoding on demand, lock-free resident reads, CLOCK eviction.
#include "db/block_cache.h"

#include <algorithm>

namespace kalah {

BlockCache::BlockCache(const std::vector<std::unique_ptr<LayerFile>>& layers, size_t limit_bytes,
                       const std::string& decoded_dir)
    : layers_(layers),
      // At least a MiB (16 blocks) per shard: a shard that holds a block or two thrashes as soon
      // as two threads share it.
      shard_count_(std::clamp<size_t>(limit_bytes >> 20, 1, kShards)),
      shard_limit_(std::max<size_t>(limit_bytes / shard_count_, 1)) {
  const int top = static_cast<int>(layers.size());
  slots_.resize(top + 1);
  flat_.assign(top + 1, nullptr);
  uint64_t raw = 0;
  for (int s = 1; s <= top; ++s) {
    slots_[s] = std::vector<Slot>(layer(s).header().blocks);
    raw += layer(s).header().boards;
  }
  resident_ = limit_bytes >= raw;
  if (!resident_) return;
  decoded_.resize(top + 1);
  arenas_.resize(top + 1);
  for (int s = 1; s <= top; ++s) {
    if (!decoded_dir.empty()) decoded_[s] = DecodedLayer::open(layer(s), decoded_dir);
    if (decoded_[s])
      flat_[s] = decoded_[s]->values();
    else
      arenas_[s] = HugeArray<uint8_t>(layer(s).header().boards);
  }
}

BlockCache::~BlockCache() {
  if (resident_) return;  // the arenas own every block
  for (auto& layer : slots_)
    for (auto& slot : layer) delete[] slot.data.load();
}

uint8_t BlockCache::resident_value(int s, uint64_t b, uint64_t offset) const {
  Slot& slot = slots_[s][b];
  if (const uint8_t* data = slot.data.load(std::memory_order_acquire)) return data[offset];
  // Decoded in place under the lock: zstd scribbles ahead of its output while it works, so a
  // second decoder of the same block, or a reader, must never see a block being decoded.
  std::lock_guard lock(shards_[b % shard_count_].mutex);
  if (const uint8_t* data = slot.data.load(std::memory_order_relaxed)) return data[offset];
  uint8_t* data = arenas_[s].data() + b * layer(s).header().boards_per_block;
  layer(s).read_block(b, data);
  slot.data.store(data, std::memory_order_release);
  return data[offset];
}

uint8_t BlockCache::value(int s, uint64_t r) const {
  if (const uint8_t* values = flat_[s]) return values[r];
  const uint32_t per_block = layer(s).header().boards_per_block;
  const uint64_t b = r / per_block;
  if (resident_) return resident_value(s, b, r % per_block);
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
  if (const uint8_t* values = flat_[s]) return __builtin_prefetch(values + r);
  const uint32_t per_block = layer(s).header().boards_per_block;
  if (const uint8_t* data = slots_[s][r / per_block].data.load(std::memory_order_acquire))
    __builtin_prefetch(data + r % per_block);
}

}  // namespace kalah
