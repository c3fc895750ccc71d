// memory_plan.h: what a build holds in memory, layer by layer, and lean mode when the layers do not
// fit raw (docs/design.md §5).
#pragma once

#include <cstdint>
#include <vector>

#include "db/rank.h"
#include "retrograde/builder.h"

namespace kalah {

// Beside the raw layers while building layer s: 32 MiB for buffers and code, and the row tables
// (retrograde/row_moves.h) of the row pairs in flight, one per thread, the largest holding the rows
// of s seeds.
uint64_t overhead_bytes(const Ranker& ranker, int s, int threads);

// Bytes held while building layer s in normal mode with `threads` threads: layers 0..s raw (one
// byte per board), 32 MiB for buffers and code, and the row tables of the row pairs in flight.
uint64_t build_memory_estimate(const Ranker& ranker, int s, int threads);

// Lean mode, chosen when the normal mode does not fit the memory limit (or asked for): only a
// window of the top layers is held raw while layer s is built (s at least, every layer if they
// fit and lean mode was not asked for, else more while they leave 256 MiB), and children in the
// layers below it are read from their files in chunks whose lists of children get the rest of
// the limit (retrograde/lean_children.h). The files come out the same.
struct MemoryPlan {
  bool lean = false;
  std::vector<int> window_start;      // [s]: the lowest layer held raw while building s
  std::vector<uint64_t> chunk_bytes;  // [s]: for the lists of a chunk (LeanChildren)
  std::vector<uint64_t> layer_bytes;  // [s]: the estimate while building s
  uint64_t peak = 0;                  // the estimate of the whole build
};
// Throws MemoryLimitError when not even lean mode fits.
MemoryPlan plan_memory(const BuildOptions& options, const Ranker& ranker);

}  // namespace kalah
