// lean_children.cpp: lean mode's far children, a chunk's blocks decoded once each.
#include "retrograde/lean_children.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <numeric>

#include "retrograde/chunk_sort.h"

namespace kalah {

struct LeanChildren::Buffers {
  struct Lookup {
    uint32_t index;   // of the child in the chunk
    uint32_t offset;  // of its value in its block
  };
  Scratch<uint32_t> counts;
  Scratch<Lookup> order;  // the chunk's children, bucketed by block
};

LeanChildren::LeanChildren(const std::vector<std::unique_ptr<LayerFile>>& files,
                           uint64_t chunk_bytes)
    : files_(files),
      chunk_bytes_(chunk_bytes),
      first_block_(files.size() + 1, 0),
      buffers_(std::make_unique<Buffers>()) {
  for (size_t t = 0; t < files.size(); ++t)
    first_block_[t + 1] = first_block_[t] + files[t]->header().blocks;
}

LeanChildren::~LeanChildren() = default;

void LeanChildren::resolve(const std::vector<std::span<const uint64_t>>& keys, uint8_t* values) {
  // The file block (numbered across the files) that holds a child, and its offset there.
  auto block_of = [&](uint64_t key) {
    const size_t t = far_layer(key) - 1;
    return first_block_[t] + far_rank(key) / files_[t]->header().boards_per_block;
  };
  const size_t blocks = first_block_.back();
  Buffers::Lookup* order = buffers_->order.get(std::accumulate(
      keys.begin(), keys.end(), size_t{0}, [](size_t n, const auto& k) { return n + k.size(); }));
  const std::vector<uint64_t> start = sort_children(
      keys, blocks, block_of,
      [&](uint64_t slot, uint32_t index, uint64_t key) {
        const uint32_t per_block = files_[far_layer(key) - 1]->header().boards_per_block;
        order[slot] = {index, static_cast<uint32_t>(far_rank(key) % per_block)};
      },
      buffers_->counts);
  // Decode each block touched once and fill in its children's values.
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, blocks), [&](const auto& range) {
    std::unique_ptr<uint8_t[]> data;
    for (uint64_t b = range.begin(); b != range.end(); ++b) {
      if (start[b] == start[b + 1]) continue;
      const size_t t =
          std::upper_bound(first_block_.begin(), first_block_.end(), b) - first_block_.begin() - 1;
      const LayerFile& file = *files_[t];
      if (!data) data = std::make_unique_for_overwrite<uint8_t[]>(file.header().boards_per_block);
      file.read_block(b - first_block_[t], data.get());
      for (uint64_t i = start[b]; i < start[b + 1]; ++i)
        values[order[i].index] = data[order[i].offset];
    }
  });
}

}  // namespace kalah
