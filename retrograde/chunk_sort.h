// chunk_sort.h: sorting a chunk's far children by where they are resolved
// (retrograde/layer_solver.h): by file block in lean mode, by rank in a build over several
// processes.
#pragma once

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace kalah {

// A buffer reused from chunk to chunk: fresh pages would be zeroed by the kernel each time.
template <class T>
class Scratch {
 public:
  T* get(size_t n) {
    if (n > size_) {
      data_.reset();
      data_ = std::make_unique_for_overwrite<T[]>(n);
      size_ = n;
    }
    return data_.get();
  }

 private:
  std::unique_ptr<T[]> data_;
  size_t size_ = 0;
};

// A counting sort of a chunk's children by bucket, in parallel parts of its tiles: calls
// place(slot, index, key) for every child, `index` its place in the chunk (tile after tile) and
// `slot` its place in bucket order (a bucket's children in chunk order). Returns where each
// bucket starts, buckets + 1 entries. A chunk has fewer than 2^32 children.
template <class BucketOf, class Place>
std::vector<uint64_t> sort_children(const std::vector<std::span<const uint64_t>>& keys,
                                    size_t buckets, const BucketOf& bucket_of, const Place& place,
                                    Scratch<uint32_t>& counts) {
  const size_t parts = std::min<size_t>(
      keys.size(), 8 * static_cast<size_t>(tbb::this_task_arena::max_concurrency()));
  auto part = [&](size_t q) { return q * keys.size() / parts; };
  uint32_t* count = counts.get(parts * buckets);  // [part][bucket]
  tbb::parallel_for(
      size_t{0}, parts, size_t{1},
      [&](size_t q) {
        uint32_t* own = count + q * buckets;
        std::fill(own, own + buckets, 0);
        for (size_t i = part(q); i < part(q + 1); ++i)
          for (const uint64_t key : keys[i]) ++own[bucket_of(key)];
      },
      tbb::simple_partitioner());
  // Bucket b of part q starts at count[q][b]; bucket b at start[b] in all.
  std::vector<uint64_t> start(buckets + 1);
  uint64_t children = 0;
  for (size_t b = 0; b < buckets; ++b) {
    start[b] = children;
    for (size_t q = 0; q < parts; ++q) {
      const uint32_t n = count[q * buckets + b];
      count[q * buckets + b] = static_cast<uint32_t>(children);
      children += n;
    }
  }
  start[buckets] = children;
  std::vector<uint32_t> first(keys.size() + 1, 0);  // of each tile's children in the chunk
  for (size_t i = 0; i < keys.size(); ++i)
    first[i + 1] = first[i] + static_cast<uint32_t>(keys[i].size());
  tbb::parallel_for(
      size_t{0}, parts, size_t{1},
      [&](size_t q) {
        uint32_t* next = count + q * buckets;
        for (size_t i = part(q); i < part(q + 1); ++i)
          for (size_t j = 0; j < keys[i].size(); ++j) {
            const uint64_t key = keys[i][j];
            place(next[bucket_of(key)]++, first[i] + static_cast<uint32_t>(j), key);
          }
      },
      tbb::simple_partitioner());
  return start;
}

}  // namespace kalah
