// layer_solver.h: computing one layer of a database from the layers below it (docs/design.md §5).
//
// Layer s holds V of every board with s seeds (rank order, solver/rank.h). A board's value is the
// best over its moves of the move's value from its child's (solver/value.h); children lie in
// lower layers (seeds reached a store) or in layer s itself (a sowing that stays in the mover's
// row). Those same-layer moves never form a cycle (docs/design.md §4), so one pass suffices if
// boards come in the right order:
//
// A same-layer move from (x, y) (mover row x, opponent row y) leads to (y, x') with x' of higher Φ,
// so the boards whose rows hold k and s-k seeds form a closed "row pair", independent of the
// other pairs (parallel tasks). Within one, cell (x, y) holds both boards (x, y) and (y, x); a
// block is the cells of one group of equal-Φ x rows by one group of equal-Φ y rows. A block's
// cells are independent, taken in tiles of 16 by 16 rows (parallel tasks, cache reuse), and a
// block needs only the blocks of higher-Φ x rows or y rows: blocks run as a wavefront. Within a
// tile, the children of a batch of boards are located and prefetched before any is read (the
// lookups miss the caches). Every board is computed once, by one thread, after everything it
// depends on: the values do not depend on the thread count or the schedule.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "db/layer_file.h"
#include "solver/rank.h"
#include "solver/rules.h"

namespace kalah {

// How a layer's work was divided: its boards, the largest indivisible piece (a tile of cells),
// and the critical path of the pieces' dependencies, all in boards. boards / critical_path bounds
// the speed-up of any number of threads.
struct LayerWork {
  uint64_t boards = 0;
  uint64_t largest_piece = 0;
  uint64_t critical_path = 0;
};

// Children that the process computing a layer does not hold raw ("far" children): each chunk of
// its boards lists them, then has them resolved in one go. Lean mode reads them from the layer
// files (ColdLayers); a build over several processes asks the ranks that hold them
// (db/mpi_build.h), which also share the layer being computed out by row pairs.
class FarChildren {
 public:
  virtual ~FarChildren() = default;
  // Whether the boards of lower layer t whose mover row holds k seeds are far although lower[t]
  // is given (another rank holds them); a null lower[t] is far anyway.
  virtual bool elsewhere(int /*t*/, int /*k*/) const { return false; }
  // Whether this process computes row pair k (k <= s - k) of the layer.
  virtual bool computes(int /*k*/) const { return true; }
  // Bytes a chunk's lists of children may take (17 a child).
  virtual uint64_t chunk_bytes() const = 0;
  // keys[i] lists the far children of a chunk's tile i as layer << 56 | rank; sets the values
  // that follow `values` tile by tile (keys[0]'s first, then keys[1]'s, ...) to their encoded
  // values. Called from the thread that called compute_layer.
  virtual void resolve(const std::vector<std::span<const uint64_t>>& keys, uint8_t* values) = 0;
  // Called once the process's last chunk of the layer is resolved.
  virtual void finish() {}
};

// Lean mode (db/builder.h): the layers held compressed are read from their files. A chunk's
// children are bucketed by file block and each block touched is decoded once.
class ColdLayers final : public FarChildren {
 public:
  // files[t - 1] is layer t.
  ColdLayers(const std::vector<std::unique_ptr<LayerFile>>& files, uint64_t chunk_bytes);
  ~ColdLayers() override;
  uint64_t chunk_bytes() const override { return chunk_bytes_; }
  void resolve(const std::vector<std::span<const uint64_t>>& keys, uint8_t* values) override;

 private:
  struct Buffers;
  const std::vector<std::unique_ptr<LayerFile>>& files_;
  uint64_t chunk_bytes_;
  std::vector<uint64_t> first_block_;  // [t - 1]: the number of layer t's first block
  std::unique_ptr<Buffers> buffers_;   // reused from chunk to chunk
};

// Computes layer s into out (encoded values, db/value_code.h) from the complete lower layers,
// with the calling thread's oneTBB arena. lower[t] holds layer t raw for t < s (lower[0] may be
// empty: the empty board is terminal); children where it is null, or that `far` says are
// elsewhere, are resolved through `far` a chunk at a time. With `far`, only the row pairs it
// computes are computed (and touched in out). `progress(done)` is called from worker threads
// with the boards finished so far (may be empty).
LayerWork compute_layer(const Rules& rules, const Ranker& ranker, int s,
                        const std::vector<const uint8_t*>& lower, FarChildren* far, uint8_t* out,
                        const std::function<void(uint64_t)>& progress = {});

// The boards of row pair k (k <= s - k) of layer s: the ranks of mover seeds k, and of s - k.
struct RankRange {
  uint64_t begin, end;
};
std::vector<RankRange> pair_ranges(const Ranker& ranker, int s, int k);

}  // namespace kalah
