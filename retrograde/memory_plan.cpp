// memory_plan.cpp: the memory estimates of a build and lean mode's window of raw layers.
#include "retrograde/memory_plan.h"

#include <algorithm>

#include "base/machine.h"
#include "base/threads.h"
#include "base/units.h"

namespace kalah {

uint64_t overhead_bytes(const Ranker& ranker, int s, int threads) {
  const uint64_t rows = ranker.row_count(s) + 1;
  return (uint64_t{32} << 20) + static_cast<uint64_t>(threads) * rows * (33 * ranker.pits() + 16);
}

namespace {

constexpr uint64_t kMinChunkBytes = uint64_t{1} << 20;  // chunks of 10^4 boards: slow, but correct
// Lean mode holds another layer raw only if the chunks' lists keep at least this much.
constexpr uint64_t kChunkFloor = uint64_t{256} << 20;

}  // namespace

uint64_t build_memory_estimate(const Ranker& ranker, int s, int threads) {
  uint64_t bytes = 0;
  for (int t = 0; t <= s; ++t) bytes += ranker.layer_size(t);
  return bytes + overhead_bytes(ranker, s, threads);
}

// Normal mode if every layer fits raw; else lean mode, the rest of the limit for the chunks.
MemoryPlan plan_memory(const BuildOptions& o, const Ranker& ranker) {
  const uint64_t limit = o.memory_limit ? o.memory_limit : usable_memory();
  const int threads = thread_count(o.threads);
  MemoryPlan plan;
  plan.window_start.assign(o.max_seeds + 1, 1);
  plan.chunk_bytes.assign(o.max_seeds + 1, 0);
  plan.layer_bytes.assign(o.max_seeds + 1, 0);
  for (int s = 1; s <= o.max_seeds; ++s)
    plan.layer_bytes[s] = build_memory_estimate(ranker, s, threads);
  plan.peak = build_memory_estimate(ranker, o.max_seeds, threads);
  if (plan.peak <= limit && !o.lean) return plan;
  // Lean: layer s raw (every layer while they fit, unless --lean), then lower ones while they
  // leave the chunks kChunkFloor; the window's lower edge never moves down, so a layer leaves
  // memory once and for all.
  plan.lean = true;
  plan.peak = 0;
  auto lean_minimum = [&](int s) {  // layer s, overhead, the smallest lists
    return ranker.layer_size(s) + overhead_bytes(ranker, s, threads) + kMinChunkBytes;
  };
  for (int s = 1; s <= o.max_seeds; ++s) {
    if (lean_minimum(s) > limit) {
      int fits = 0;
      while (fits < o.max_seeds && lean_minimum(fits + 1) <= limit) ++fits;
      throw MemoryLimitError("building up to " + std::to_string(o.max_seeds) + " seeds needs " +
                             human_bytes(build_memory_estimate(ranker, o.max_seeds, threads)) +
                             ", and layer " + std::to_string(s) + " needs " +
                             human_bytes(lean_minimum(s)) +
                             " even in lean mode; the memory limit is " + human_bytes(limit) +
                             " (up to " + std::to_string(fits) + " seeds would fit)");
    }
    const uint64_t overhead = overhead_bytes(ranker, s, threads);
    int start = s;
    uint64_t raw = ranker.layer_size(s);
    const uint64_t all_raw = build_memory_estimate(ranker, s, threads);
    if (!o.lean && plan.window_start[s - 1] == 1 && all_raw <= limit) {  // as normal mode
      start = 1;
      raw = all_raw - overhead;
    }
    while (start > 1 && start > plan.window_start[s - 1] &&
           raw + ranker.layer_size(start - 1) + overhead + kChunkFloor <= limit)
      raw += ranker.layer_size(--start);
    plan.window_start[s] = start;
    // A quarter of what is left is kept from the chunks for what the estimate does not see (the
    // heap's slack, threads' buffers and stacks, zstd's contexts): an eighth was measured too
    // little (docs/design.md §5).
    plan.chunk_bytes[s] = start > 1 ? (limit - raw - overhead) / 4 * 3 : 0;
    plan.layer_bytes[s] = raw + overhead + plan.chunk_bytes[s] / 3 * 4;
    plan.peak = std::max(plan.peak, plan.layer_bytes[s]);
  }
  return plan;
}

}  // namespace kalah
