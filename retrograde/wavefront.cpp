// wavefront.cpp: running a row pair's blocks as a wavefront of parallel tiles.
#include "retrograde/wavefront.h"

#include <tbb/parallel_for.h>
#include <tbb/parallel_for_each.h>

#include <algorithm>
#include <atomic>
#include <climits>

namespace kalah {
namespace {

// The critical path of a row pair's wavefront in boards, each block counted as its largest tile
// (the time with unboundedly many threads).
uint64_t critical_path(const RowPair& pair) {
  const int nx = pair.x_groups(), ny = pair.y_groups();
  std::vector<uint64_t> path(static_cast<size_t>(nx) * ny);
  for (int gx = 0; gx < nx; ++gx)
    for (int gy = 0; gy < ny; ++gy)
      path[gx * ny + gy] = pair.largest_tile(gx, gy) + std::max(gx ? path[(gx - 1) * ny + gy] : 0,
                                                                gy ? path[gx * ny + gy - 1] : 0);
  return path.back();
}

}  // namespace

void run_wavefront(const RowPair& pair, const std::vector<TileSpan>& spans, const Layers& layers,
                   const std::function<void(uint64_t)>& done) {
  const int nx = pair.x_groups(), ny = pair.y_groups();
  std::vector<size_t> index(static_cast<size_t>(nx) * ny, SIZE_MAX);  // [gx * ny + gy]
  for (size_t i = 0; i < spans.size(); ++i) index[spans[i].gx * ny + spans[i].gy] = i;
  auto find = [&](int gx, int gy) -> const size_t* {
    if (gx < 0 || gy < 0 || gx >= nx || gy >= ny) return nullptr;
    const size_t* i = &index[gx * ny + gy];
    return *i == SIZE_MAX ? nullptr : i;
  };
  std::vector<std::atomic<int>> waiting(spans.size());
  std::vector<size_t> ready;
  for (size_t i = 0; i < spans.size(); ++i) {
    const TileSpan& p = spans[i];
    waiting[i] = (find(p.gx - 1, p.gy) != nullptr) + (find(p.gx, p.gy - 1) != nullptr);
    if (waiting[i] == 0) ready.push_back(i);
  }
  tbb::parallel_for_each(ready.begin(), ready.end(), [&](size_t i, tbb::feeder<size_t>& feeder) {
    const TileSpan& p = spans[i];
    std::atomic<uint64_t> boards{0};
    tbb::parallel_for(p.t0, p.t1, [&](size_t t) {
      BoardEvaluator evaluator(pair.rules(), pair.ranker(), pair.seeds(), layers, nullptr,
                               p.far ? p.far[t - p.t0] : nullptr);
      boards += pair.queue_tile(evaluator, p.gx, p.gy, t);
      evaluator.flush();
    });
    done(boards);
    for (const size_t* next : {find(p.gx + 1, p.gy), find(p.gx, p.gy + 1)})
      if (next && --waiting[*next] == 0) feeder.add(*next);
  });
}

std::vector<TileSpan> all_blocks(const RowPair& pair) {
  std::vector<TileSpan> spans;
  for (int gx = 0; gx < pair.x_groups(); ++gx)
    for (int gy = 0; gy < pair.y_groups(); ++gy)
      spans.push_back({gx, gy, 0, pair.tile_count(gx, gy)});
  return spans;
}

void add_pair_work(const RowPair& pair, LayerWork& work) {
  for (int gx = 0; gx < pair.x_groups(); ++gx)
    for (int gy = 0; gy < pair.y_groups(); ++gy)
      work.largest_piece = std::max(work.largest_piece, pair.largest_tile(gx, gy));
  work.critical_path = std::max(work.critical_path, critical_path(pair));
}

}  // namespace kalah
