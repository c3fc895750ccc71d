// chunked_layer.h: computing a layer's boards in chunks sized to memory when some of their
// children are far (retrograde/far_children.h, docs/design.md §5).
#pragma once

#include <tbb/task_arena.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "retrograde/chunk_sort.h"
#include "retrograde/far_children.h"
#include "retrograde/wavefront.h"

namespace kalah {

// With far children: the row pairs one after another, each one's blocks in order of gx then gy
// (a block comes after those it depends on), cut into chunks of tiles. A chunk lists the far
// children of its tiles (in parallel), has them resolved (FarChildren), and then computes its
// pieces, which read the values in the order they were listed.
class ChunkedLayer {
 public:
  ChunkedLayer(const Layers& layers, FarChildren& far, int pits,
               const std::function<void(uint64_t)>& done)
      : layers_(layers),
        far_(far),
        pits_(pits),
        done_(done),
        parts_(8 * static_cast<size_t>(tbb::this_task_arena::max_concurrency())) {}

  // Adds the blocks of a row pair, computing chunks as they fill (chunks do not span pairs).
  void add(std::unique_ptr<RowPair> owned) {
    compute_chunk();
    pair_ = std::move(owned);
    // Pairs differ in how many of their children are far (k = 0: none in lean mode): each
    // learns its own, from a first chunk sized for the most.
    seen_ = 0;
    for (int gx = 0; gx < pair_->x_groups(); ++gx)  // a block after those it depends on
      for (int gy = 0; gy < pair_->y_groups(); ++gy) add_block(gx, gy);
  }
  void finish() {
    compute_chunk();
    far_.finish();
  }

 private:
  // Adds the tiles of block (gx, gy) of the pair, computing chunks as they fill.
  void add_block(int gx, int gy) {
    const size_t tiles = pair_->tile_count(gx, gy);
    const uint64_t per_tile = std::max<uint64_t>(pair_->largest_tile(gx, gy), 1);
    for (size_t t = 0; t < tiles;) {
      const uint64_t room = limit() > boards_ ? (limit() - boards_) / per_tile : 0;
      const size_t take = std::clamp<uint64_t>(room, 1, tiles - t);
      spans_.push_back({gx, gy, t, t + take});
      boards_ += take * per_tile;
      t += take;
      if (boards_ >= limit() || t < tiles) compute_chunk();  // one span per block in a chunk
    }
  }

  // Far children a board is expected to have at most: m before the pair's first chunk, then
  // 1.25 times the most a chunk of the pair has had.
  double per_board() const {
    return seen_ > 0 ? std::clamp(seen_ * 1.25, 0.25, 1.0 * pits_) : pits_;
  }

  // Boards per chunk: its lists take kFarChildBytes a child, and the chunk's children are
  // numbered in 32 bits.
  uint64_t limit() const {
    const uint64_t boards =
        far_.chunk_bytes() / static_cast<uint64_t>(kFarChildBytes * per_board());
    return std::clamp<uint64_t>(boards, 2 * kTileRows * kTileRows, UINT32_MAX / pits_);
  }

  // Lists the chunk's far children, has them resolved and computes its spans.
  void compute_chunk();

  const Layers& layers_;
  FarChildren& far_;
  double seen_ = 0;  // the most far children a board had in a chunk of this row pair
  const int pits_;
  const std::function<void(uint64_t)>& done_;
  const size_t parts_;             // of a chunk's tiles, listed in parallel
  Scratch<uint64_t> keys_;         // the chunk's children's keys, tile by tile
  Scratch<uint8_t> values_;        // the chunk's children's values, tile by tile
  std::unique_ptr<RowPair> pair_;  // the one being added
  std::vector<TileSpan> spans_;    // of the chunk being formed
  uint64_t boards_ = 0;            // its boards, at most
};

}  // namespace kalah
