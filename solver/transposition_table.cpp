// transposition_table.cpp: a two-way bucketed table that grows by rehashing.
#include "solver/transposition_table.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace kalah {

uint64_t TranspositionTable::hash(const Board& b) {
  uint64_t w[2];
  std::memcpy(w, b.pits.data(), sizeof w);
  uint64_t h =
      w[0] * 0x9E3779B97F4A7C15ull ^ (w[1] + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 32);
}

TranspositionTable::TranspositionTable(size_t max_bytes)
    : max_buckets_(std::bit_floor(std::max<size_t>(max_bytes / sizeof(Bucket), 1))) {
  const size_t initial = std::min<size_t>(max_buckets_, (size_t{1} << 20) / sizeof(Bucket));
  buckets_ = HugeArray<Bucket>(std::bit_floor(initial));
}

const TranspositionTable::Entry* TranspositionTable::find(const Board& b) const {
  for (const Entry& e : bucket(b).e)
    if (e.key == b) return &e;
  return nullptr;
}

void TranspositionTable::insert(const Entry& entry) {
  Bucket& k = bucket(entry.key);
  Entry* e = k.e[0].key == entry.key ? &k.e[0] : k.e[1].key == entry.key ? &k.e[1] : nullptr;
  if (e) {
    e->lo = std::max(e->lo, entry.lo);
    e->hi = std::min(e->hi, entry.hi);
    e->move = entry.move;
    e->work = std::max(e->work, entry.work);
    return;
  }
  e = k.e[0].work <= k.e[1].work ? &k.e[0] : &k.e[1];
  *e = entry;
  ++inserted_;
}

void TranspositionTable::store(const Board& b, int lo, int hi, int move, uint64_t nodes) {
  insert(Entry{b, static_cast<int16_t>(lo), static_cast<int16_t>(hi), static_cast<int8_t>(move),
               static_cast<uint8_t>(std::bit_width(nodes))});
  if (inserted_ > capacity() && buckets_.size() < max_buckets_) grow();
}

void TranspositionTable::grow() {
  HugeArray<Bucket> old = std::move(buckets_);
  buckets_ = HugeArray<Bucket>(std::min(max_buckets_, old.size() * 8));
  inserted_ = 0;
  for (size_t i = 0; i < old.size(); ++i)
    for (const Entry& e : old[i].e)
      if (e.key != Board{}) insert(e);
}

}  // namespace kalah
