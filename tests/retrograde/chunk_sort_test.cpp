// chunk_sort_test.cpp: the counting sort that buckets a chunk's far children
// (retrograde/chunk_sort.h).
#include "retrograde/chunk_sort.h"

#include <gtest/gtest.h>

#include <random>

namespace kalah {
namespace {

// Tiles of random sizes (empty ones included), random keys: every child is placed exactly once,
// in its bucket's slots, a bucket's children in chunk order, and `start` bounds the buckets.
TEST(ChunkSort, PlacesEveryChildOnceInBucketAndChunkOrder) {
  std::mt19937_64 rng(22);
  Scratch<uint32_t> counts;  // reused across chunks, as the builder does
  for (const size_t buckets : {1u, 2u, 7u, 300u}) {
    for (const size_t tiles : {1u, 5u, 200u}) {
      std::vector<std::vector<uint64_t>> lists(tiles);
      std::vector<uint64_t> chunk;  // every key in chunk order
      for (auto& list : lists) {
        list.resize(std::uniform_int_distribution<size_t>(0, 50)(rng));
        for (auto& key : list) key = rng();
        chunk.insert(chunk.end(), list.begin(), list.end());
      }
      const std::vector<std::span<const uint64_t>> keys(lists.begin(), lists.end());
      const auto bucket_of = [&](uint64_t key) { return key % buckets; };
      std::vector<uint64_t> slot_key(chunk.size(), 0);
      std::vector<int64_t> slot_index(chunk.size(), -1);
      const std::vector<uint64_t> start = sort_children(
          keys, buckets, bucket_of,
          [&](uint64_t slot, uint32_t index, uint64_t key) {
            ASSERT_LT(slot, chunk.size());
            ASSERT_EQ(slot_index[slot], -1) << "slot " << slot << " filled twice";
            slot_index[slot] = index;
            slot_key[slot] = key;
          },
          counts);
      ASSERT_EQ(start.size(), buckets + 1);
      EXPECT_EQ(start.front(), 0u);
      EXPECT_EQ(start.back(), chunk.size());
      for (size_t b = 0; b < buckets; ++b)
        for (uint64_t slot = start[b]; slot < start[b + 1]; ++slot) {
          ASSERT_GE(slot_index[slot], 0);
          EXPECT_EQ(bucket_of(slot_key[slot]), b);
          EXPECT_EQ(chunk[slot_index[slot]], slot_key[slot]) << "index names another child";
          if (slot > start[b]) {
            EXPECT_LT(slot_index[slot - 1], slot_index[slot]);
          }
        }
    }
  }
}

}  // namespace
}  // namespace kalah
