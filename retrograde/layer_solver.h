// layer_solver.h: computing one layer of a database from the layers below it (docs/design.md §5).
//
// Layer s holds V of every board with s seeds (rank order, db/rank.h). A board's value is the
// best over its moves of the move's value from its child's (game/value.h); children lie in
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
// lookups miss the caches: retrograde/board_evaluator.h). The schedule is retrograde/wavefront.h;
// with far children, retrograde/chunked_layer.h cuts it into chunks. Every board is computed once,
// by one thread, after everything it depends on: the values do not depend on the thread count or
// the schedule.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "db/rank.h"
#include "game/rules.h"
#include "retrograde/far_children.h"
#include "retrograde/wavefront.h"

namespace kalah {

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
