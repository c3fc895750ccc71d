// partition.h: how a build over several processes shares the layers among its ranks
// (docs/design.md §5).
//
// Each row pair of a layer (db/layer_solver.h) goes whole to one rank, which computes it and then
// holds its boards for the layers above: a pair's same-layer moves stay within it, so a rank
// never waits on another while computing, and only children in lower layers cross ranks. Pairs go
// largest first to the rank with the fewest boards of the layer so far (on a tie, the fewest of
// all layers so far, then the lowest rank): the same on every rank, from the ranker alone.
#pragma once

#include <cstdint>
#include <vector>

#include "db/layer_solver.h"
#include "solver/rank.h"

namespace kalah {

class Partition {
 public:
  Partition(const Ranker& ranker, int max_seeds, int ranks);

  int ranks() const { return ranks_; }
  // The rank that holds the boards of layer s whose mover row holds k seeds.
  int owner(int s, int k) const { return owner_[s][k]; }
  // The boards of layer s that `rank` holds, in rank order, and how many.
  const std::vector<RankRange>& ranges(int s, int rank) const { return ranges_[s][rank]; }
  uint64_t boards(int s, int rank) const;
  // The rank holding board `r` of layer s.
  int owner_of(int s, uint64_t r) const {
    const int o = coarse_[s][r >> shift_[s]];
    return o >= 0 ? o : owner_searched(s, r);
  }

 private:
  int ranks_;
  std::vector<std::vector<int>> owner_;                      // [s][k]
  std::vector<std::vector<std::vector<RankRange>>> ranges_;  // [s][rank]
  std::vector<std::vector<uint64_t>> starts_;                // [s][k]: the first rank of mover k
  // owner_of without a search: the owner of each 2^shift boards of layer s when they have one
  // (-1 where a range starts among them).
  std::vector<int> shift_;
  std::vector<std::vector<int8_t>> coarse_;
  int owner_searched(int s, uint64_t r) const;
};

}  // namespace kalah
