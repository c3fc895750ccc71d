// layer_solver.h: computing one layer of a database from the layers below it (docs/design.md §5).
//
// Layer s holds V of every board with s seeds (rank order, solver/rank.h). A board's value is the
// best over its moves of the move's value from its child's (solver/value.h); children lie in
// lower layers (seeds reached a store) or in layer s itself (a sowing that stays in the mover's
// row). Those same-layer moves never form a cycle (docs/design.md §4), so one pass suffices if
// boards come in the right order:
//
// A same-layer move from (x, y) (mover row x, opponent row y) leads to (y, x') with x' of higher Φ,
// so the boards whose rows hold k and s-k seeds form a closed "row pair": independent of the other
// pairs (parallel tasks) and computable cell by cell, cells (x, y) in Φ-descending order of x and
// of y (both boards (x, y) and (y, x) per cell). Cells of two groups of equal Φ are independent:
// they are taken in tiles of a few rows by a few rows for cache reuse, and their children are
// located and prefetched a batch at a time before being read (the lookups miss the caches).
// Every board is computed once, by one thread: the values do not depend on the thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "solver/rank.h"
#include "solver/rules.h"

namespace kalah {

// Computes layer s into out (encoded values, db/value_code.h) from the complete lower layers,
// with the calling thread's oneTBB arena. lower[t] holds layer t for t < s (lower[0] may be
// empty: the empty board is terminal). `progress(done)` is called from worker threads with the
// boards finished so far (may be empty).
void compute_layer(const Rules& rules, const Ranker& ranker, int s,
                   const std::vector<const uint8_t*>& lower, uint8_t* out,
                   const std::function<void(uint64_t)>& progress = {});

}  // namespace kalah
