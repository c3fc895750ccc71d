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

static_assert(sizeof(TranspositionTable::Entry) * 2 < 64, "two entries and a lock a line");

TranspositionTable::TranspositionTable(size_t max_bytes, bool shared)
    : buckets_(std::bit_floor(std::max<size_t>(max_bytes / sizeof(Bucket), 1))), shared_(shared) {
  mask_ = std::min<size_t>(buckets_.size(), kInitialBytes / sizeof(Bucket)) - 1;
}

TranspositionTable::Lock::Lock(const TranspositionTable& t, const Bucket& k)
    : lock_(t.shared_ ? &k.lock : nullptr) {
  if (!lock_) return;
  while (lock_->exchange(1, std::memory_order_acquire))
    while (lock_->load(std::memory_order_relaxed)) __builtin_ia32_pause();
}

TranspositionTable::Lock::~Lock() {
  if (lock_) lock_->store(0, std::memory_order_release);
}

bool TranspositionTable::find(const Board& b, Entry& out) const {
  const Bucket& k = bucket(b);
  const Lock lock(*this, k);
  const Entry* e = entry_of(k, b);
  if (e) out = *e;
  return e;
}

uint64_t TranspositionTable::enter(const Board& b) {
  Bucket& k = bucket(b);
  const Lock lock(*this, k);
  if (Entry* e = entry_of(k, b)) {
    ++e->busy;
    return 0;
  }
  // Not in the table yet: an entry with no bounds, only the mark, in place of a cheap entry
  // that no thread is searching (none: go unmarked).
  Entry* e = victim(k);
  if (!e) return 0;
  const uint64_t lost = work_of(*e);
  *e = Entry{b, INT16_MIN, INT16_MAX, -1, 0, 1};
  return lost;
}

void TranspositionTable::leave(const Board& b) {
  Bucket& k = bucket(b);
  const Lock lock(*this, k);
  if (Entry* e = entry_of(k, b); e && e->busy) --e->busy;
}

bool TranspositionTable::busy(const Board& b) const {
  const Bucket& k = bucket(b);
  const Lock lock(*this, k);
  const Entry* e = entry_of(k, b);
  return e && e->busy > 0;
}

uint64_t TranspositionTable::insert(const Entry& entry) {
  Bucket& k = bucket(entry.key);
  const Lock lock(*this, k);
  Entry* e = entry_of(k, entry.key);
  if (e) {
    e->lo = std::max(e->lo, entry.lo);
    e->hi = std::min(e->hi, entry.hi);
    e->move = entry.move;
    e->work = std::max(e->work, entry.work);
    return 0;
  }
  e = victim(k);
  if (!e) return 0;  // both boards are being searched: their marks matter more
  const uint64_t lost = work_of(*e);
  *e = entry;
  return lost;
}

TranspositionTable::Entry* TranspositionTable::victim(Bucket& k) {
  Entry* cheap = k.e[0].work <= k.e[1].work ? &k.e[0] : &k.e[1];
  Entry* other = cheap == &k.e[0] ? &k.e[1] : &k.e[0];
  return !cheap->busy ? cheap : !other->busy ? other : nullptr;
}

uint64_t TranspositionTable::store(const Board& b, int lo, int hi, int move, uint64_t nodes) {
  const uint64_t lost =
      insert(Entry{b, static_cast<int16_t>(lo), static_cast<int16_t>(hi), static_cast<int8_t>(move),
                   static_cast<uint8_t>(std::bit_width(nodes)), 0});
  if (!shared_ && should_grow(lost_ += lost)) grow();
  return lost;
}

size_t TranspositionTable::widen(size_t factor) {
  const size_t old = mask_ + 1;
  mask_ = std::min(buckets_.size(), old * factor) - 1;
  return old;
}

size_t TranspositionTable::grow_shared() {
  lost_shared_ = 0;
  grow_wanted_ = false;
  return widen(2);
}

void TranspositionTable::split(size_t first, size_t last) {
  // An entry of bucket i belongs in i + k * (buckets before) for some k: no two buckets' entries
  // go to the same bucket, so no more than two go to any, and buckets split in any order.
  for (size_t i = first; i < last; ++i)
    for (Entry& e : buckets_[i].e) {
      if (e.key == Board{}) continue;
      Bucket& to = buckets_[hash(e.key) & mask_];
      if (&to == &buckets_[i]) continue;
      *(to.e[0].key == Board{} ? &to.e[0] : &to.e[1]) = e;
      e = Entry{};
    }
}

std::vector<TranspositionTable::Entry> TranspositionTable::costliest(size_t most) const {
  const auto with_bounds = [](const Entry& e) { return e.work > 0 && !(e.key == Board{}); };
  size_t by_work[257] = {};
  for (size_t i = 0; i <= mask_; ++i)
    for (const Entry& e : buckets_[i].e)
      if (with_bounds(e)) ++by_work[e.work];
  int threshold = 256;  // the least work kept
  for (size_t kept = 0; threshold > 1 && kept + by_work[threshold - 1] <= most; --threshold)
    kept += by_work[threshold - 1];
  std::vector<Entry> out;
  for (size_t i = 0; i <= mask_; ++i)
    for (const Entry& e : buckets_[i].e)
      if (with_bounds(e) && e.work >= threshold)
        out.push_back(Entry{e.key, e.lo, e.hi, e.move, e.work, 0});
  return out;
}

void TranspositionTable::restore(const std::vector<Entry>& entries) {
  while (capacity() < 2 * entries.size() && mask_ + 1 < buckets_.size()) grow();
  for (Entry e : entries) {
    e.busy = 0;
    insert(e);
  }
}

void TranspositionTable::grow() {
  split(0, widen(2));
  lost_ = 0;
}

}  // namespace kalah
