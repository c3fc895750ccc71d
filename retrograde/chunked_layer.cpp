// chunked_layer.cpp: a chunk's far children listed in parallel, resolved, then computed.
#include "retrograde/chunked_layer.h"

#include <tbb/parallel_for.h>

#include <atomic>
#include <span>

namespace kalah {

void ChunkedLayer::compute_chunk() {
  if (spans_.empty()) return;
  std::vector<std::pair<size_t, size_t>> tiles;  // (piece, tile)
  for (size_t i = 0; i < spans_.size(); ++i)
    for (size_t t = spans_[i].t0; t < spans_[i].t1; ++t) tiles.emplace_back(i, t);
  // List the children, in parallel parts of the tiles. Each tile's keys are copied into one
  // buffer sized for the chunk, or, past its end (a chunk with more children than expected),
  // into a vector of their own.
  const size_t parts = std::min(parts_, tiles.size());
  auto part = [&](size_t q) { return q * tiles.size() / parts; };
  const size_t capacity = static_cast<size_t>(limit() * per_board());
  uint64_t* buffer = keys_.get(capacity);
  std::atomic<size_t> used{0};
  std::vector<std::span<const uint64_t>> keys(tiles.size());
  std::vector<std::vector<uint64_t>> overflow(tiles.size());
  std::atomic<uint64_t> boards{0};
  tbb::parallel_for(
      size_t{0}, parts, size_t{1},
      [&](size_t q) {
        std::vector<uint64_t> tile;
        for (size_t i = part(q); i < part(q + 1); ++i) {
          const TileSpan& p = spans_[tiles[i].first];
          tile.clear();
          BoardEvaluator gather(pair_->rules(), pair_->ranker(), pair_->seeds(), layers_, &tile);
          boards += pair_->queue_tile(gather, p.gx, p.gy, tiles[i].second);
          const size_t at = used.fetch_add(tile.size());
          if (at + tile.size() <= capacity) {
            std::copy(tile.begin(), tile.end(), buffer + at);
            keys[i] = {buffer + at, tile.size()};
          } else {
            overflow[i] = tile;
            keys[i] = overflow[i];
          }
        }
      },
      tbb::simple_partitioner());
  uint64_t children = 0;
  std::vector<const uint8_t*> tile_values(tiles.size());
  uint8_t* values = values_.get(used);
  for (size_t i = 0; i < tiles.size(); children += keys[i++].size())
    tile_values[i] = values + children;
  far_.resolve(keys, values);
  overflow = {};
  if (boards > 0) seen_ = std::max(seen_, double(children) / boards);  // sizes the next chunks
  for (size_t i = 0, first = 0; i < spans_.size(); first += spans_[i].t1 - spans_[i].t0, ++i)
    spans_[i].far = &tile_values[first];
  run_wavefront(*pair_, spans_, layers_, done_);
  spans_.clear();
  boards_ = 0;
}

}  // namespace kalah
