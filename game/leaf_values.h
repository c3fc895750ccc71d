// leaf_values.h: exact values of the boards with few seeds, where a search stops (docs/design.md
// §7). An endgame database implements it (db/database.h); the solver knows only this interface,
// so it stays free of files and storage.
#pragma once

#include <cstdint>

#include "game/rules.h"

namespace kalah {

class LeafValues {
 public:
  virtual ~LeafValues() = default;
  // Boards with at most this many seeds on the pits have a value here.
  virtual int max_seeds() const = 0;
  // V of b (at most max_seeds() seeds). Must be safe to call from several threads at once.
  virtual int value(const Board& b) const = 0;
  // A hint that the value of b (not finished) follows soon: an implementation may start loading
  // it. Returns where b is, for value_at (a database's rank: the search finds it once).
  virtual uint64_t prefetch(const Board& /*b*/) const { return 0; }
  // Further hints, stage 1, 2, .. prefetch_stages(), each once every leaf of a node had the one
  // before: a value behind dependent loads (a database searched where it lies reads its block's
  // view, then the view's tables, then the line) starts each load once the one before had time
  // to arrive, and the loads of a node's leaves overlap.
  virtual int prefetch_stages() const { return 0; }
  virtual void prefetch_again(int /*seeds*/, uint64_t /*where*/, int /*stage*/) const {}
  // V of b (not finished) from what prefetch(b) returned.
  virtual int value_at(const Board& b, uint64_t /*where*/) const { return value(b); }
};

}  // namespace kalah
