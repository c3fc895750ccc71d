// layer_solver.cpp: computing one layer: which row pairs, in what order, from which sources.
#include "retrograde/layer_solver.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "retrograde/chunked_layer.h"
#include "retrograde/wavefront.h"

namespace kalah {
namespace {

// Sets the boards of the given row pairs to 'unknown'; returns how many. In parallel: the first
// touch of fresh memory (the kernel zeroing its pages) is slow, and done by one thread it held
// the others idle.
uint64_t clear_pairs(const Ranker& ranker, int s, const std::vector<int>& ks, uint8_t* out) {
  uint64_t size = 0;
  for (const int k : ks)
    for (const RankRange& r : pair_ranges(ranker, s, k)) {
      size += r.end - r.begin;
      tbb::parallel_for(tbb::blocked_range<uint64_t>(r.begin, r.end, uint64_t{1} << 24),
                        [&](const tbb::blocked_range<uint64_t>& b) {
                          std::memset(out + b.begin(), kUnknownValue, b.size());
                        });
    }
  return size;
}

// Where layer s's children are read: the raw layers, and which of their boards are far.
Layers layer_sources(const Ranker& ranker, int s, const std::vector<const uint8_t*>& lower,
                     const FarChildren* far, uint8_t* out) {
  Layers layers{lower, {}, out};
  layers.raw.resize(s + 1);
  layers.raw[s] = out;
  layers.far.assign((s + 1) * (s + 1), 0);
  for (int t = 1; t < s; ++t) {
    if (!layers.raw[t] && !far) throw std::logic_error("builder has no source for a lower layer");
    if (ranker.layer_size(t) > kFarRankMask)
      throw std::overflow_error("far children need layers of fewer than 2^56 boards");
    for (int k = 0; k <= t; ++k)
      layers.far[t * (s + 1) + k] = !layers.raw[t] || (far && far->elsewhere(t, k));
  }
  return layers;
}

}  // namespace

std::vector<RankRange> pair_ranges(const Ranker& ranker, int s, int k) {
  const uint64_t boards = ranker.row_count(k) * ranker.row_count(s - k);
  std::vector<RankRange> ranges;
  for (const int mover : {k, s - k}) {
    const uint64_t begin = ranker.rank_of_rows(s, mover, 0, 0);
    ranges.push_back({begin, begin + boards});
    if (2 * k == s) break;
  }
  return ranges;
}

LayerWork compute_layer(const Rules& rules, const Ranker& ranker, int s,
                        const std::vector<const uint8_t*>& lower, FarChildren* far, uint8_t* out,
                        const std::function<void(uint64_t)>& progress) {
  std::vector<int> ks;  // the row pairs this process computes
  for (int k = 0; 2 * k <= s; ++k)
    if (!far || far->computes(k)) ks.push_back(k);
  LayerWork work;
  work.boards = clear_pairs(ranker, s, ks, out);
  const Layers layers = layer_sources(ranker, s, lower, far, out);
  std::atomic<uint64_t> done{0};
  const std::function<void(uint64_t)> finished = [&](uint64_t boards) {
    const uint64_t total = done.fetch_add(boards) + boards;
    if (progress) progress(total);
  };
  if (std::find(layers.far.begin(), layers.far.end(), 1) != layers.far.end()) {
    ChunkedLayer chunked(layers, *far, rules.pits, finished);
    for (const int k : ks) {
      auto pair = std::make_unique<RowPair>(rules, ranker, s, k);
      add_pair_work(*pair, work);
      chunked.add(std::move(pair));
    }
    chunked.finish();
  } else {
    // Row pairs (k, s-k) are independent: largest first, so the threads finish together.
    std::sort(ks.begin(), ks.end(), [&](int a, int b) {
      return ranker.row_count(a) * ranker.row_count(s - a) >
             ranker.row_count(b) * ranker.row_count(s - b);
    });
    std::mutex mutex;
    tbb::parallel_for(
        size_t{0}, ks.size(), size_t{1},
        [&](size_t i) {
          const RowPair pair(rules, ranker, s, ks[i]);
          run_wavefront(pair, all_blocks(pair), layers, finished);
          std::lock_guard lock(mutex);
          add_pair_work(pair, work);
        },
        tbb::simple_partitioner());
    if (far) far->finish();
  }
  bool complete = done == work.boards;
  for (const int k : ks)
    for (const RankRange& r : pair_ranges(ranker, s, k))
      complete = complete && !std::memchr(out + r.begin, kUnknownValue, r.end - r.begin);
  if (!complete) throw std::logic_error("builder left a board uncomputed");
  return work;
}

}  // namespace kalah
