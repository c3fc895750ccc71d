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

// Lower layers held compressed (the builder's lean mode, db/builder.h): their children are read
// from the layer files. The layer is then computed in chunks of tiles, row pair after row pair:
// first every child of the chunk's boards that lies in a compressed layer is listed, then the
// list is bucketed by file block and each block touched is decoded once, then the boards are
// computed from the values found. `chunk_bytes` caps the lists of one chunk (17 bytes a child).
struct ColdLayers {
  const std::vector<std::unique_ptr<LayerFile>>& files;  // files[t - 1] is layer t
  uint64_t chunk_bytes;
};

// Computes layer s into out (encoded values, db/value_code.h) from the complete lower layers,
// with the calling thread's oneTBB arena. lower[t] holds layer t raw for t < s (lower[0] may be
// empty: the empty board is terminal); where it is null, the layer is read from its file in
// `cold` instead. `progress(done)` is called from worker threads with the boards finished so far
// (may be empty).
LayerWork compute_layer(const Rules& rules, const Ranker& ranker, int s,
                        const std::vector<const uint8_t*>& lower, const ColdLayers* cold,
                        uint8_t* out, const std::function<void(uint64_t)>& progress = {});

}  // namespace kalah
