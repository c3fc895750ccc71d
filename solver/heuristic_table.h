// heuristic_table.h: the heuristic search's table (solver/heuristic.cpp): each board's bound
// with the depth it was searched to, and its best move. Internal to heuristic.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "base/huge_array.h"
#include "game/any_board.h"
#include "game/rules.h"

namespace kalah::heuristic_table {

constexpr uint8_t kSolved = 255;  // a table depth: the subtree met no ply limit

// A table key: the board itself where it fits 16 bytes (no collisions), else a 128-bit hash.
struct Key {
  uint64_t a = 0, b = 0;
  bool operator==(const Key&) const = default;
};
inline Key key_of(const Board& b) {
  Key k;
  std::memcpy(&k, b.pits.data(), sizeof k);
  return k;
}
inline Key key_of(const AnyBoard& b) {
  Key k{0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full};
  for (const int pits : b.pits) {
    k.a = (k.a ^ static_cast<uint64_t>(pits)) * 0x100000001B3ull;
    k.b = (k.b + static_cast<uint64_t>(pits) + 1) * 0xBF58476D1CE4E5B9ull;
    k.b ^= k.b >> 29;
  }
  return k;
}
inline uint64_t slot_hash(const Key& k) {
  const uint64_t h = (k.a ^ (k.b * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 31);
}

enum Bound : uint8_t { kEmpty = 0, kLower = 1, kUpper = 2, kExact = 3 };

struct Entry {  // all-zero bytes: an empty one
  Key key;
  int16_t value = 0;
  uint8_t depth = 0;  // plies searched below it, or kSolved
  uint8_t bound = kEmpty;
  int16_t best = -1;  // the best move found, 0-based (AnyBoard rows pass 127 pits)
};

// Two entries a bucket: a new one replaces the same board's, else the shallower of the two.
// In fresh huge pages, zeroed by the kernel as they are first touched: a short search pays only
// for the pages it uses (writing 32 MiB of zeros took 100 ms here, and touching 16 MiB in 4 KiB
// pages 40 ms: longer than a first estimate should take).
class Table {
 public:
  explicit Table(size_t bytes) : entries_(2 * buckets(bytes)), mask_(buckets(bytes) - 1) {}
  const Entry* find(const Key& k) const {
    const Entry* e = &entries_[2 * (slot_hash(k) & mask_)];
    if (e[0].bound != kEmpty && e[0].key == k) return &e[0];
    if (e[1].bound != kEmpty && e[1].key == k) return &e[1];
    return nullptr;
  }
  void store(const Key& k, int value, uint8_t depth, Bound bound, int best) {
    Entry* e = &entries_[2 * (slot_hash(k) & mask_)];
    Entry* slot = e[0].key == k              ? &e[0]
                  : e[1].key == k            ? &e[1]
                  : e[0].depth <= e[1].depth ? &e[0]
                                             : &e[1];
    *slot = {k, static_cast<int16_t>(value), depth, bound, static_cast<int16_t>(best)};
  }

 private:
  static size_t buckets(size_t bytes) {
    size_t n = 1;
    while (2 * n * 2 * sizeof(Entry) <= bytes) n *= 2;
    return n;
  }
  HugeArray<Entry> entries_;
  size_t mask_;
};

}  // namespace kalah::heuristic_table
