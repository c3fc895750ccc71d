// partition.h: how a build over several processes shares the layers among them
// (docs/design.md §5). MPI-free: processes are numbered 0..P-1 (mpi/ gives the numbers); "rank"
// is a board's index in its layer, as everywhere.
//
// Each row pair of a layer (retrograde/layer_solver.h) goes whole to one process, which computes it
// and then holds its boards for the layers above: a pair's same-layer moves stay within it, so a
// process never waits on another while computing, and only children in lower layers cross
// processes. Pairs go largest first to the process with the fewest boards of the layer so far (on
// a tie, the fewest of all layers so far, then the lowest number): the same in every process,
// from the ranker alone.
#pragma once

#include <cstdint>
#include <vector>

#include "db/rank.h"
#include "retrograde/layer_solver.h"

namespace kalah {

class Partition {
 public:
  Partition(const Ranker& ranker, int max_seeds, int processes);

  int processes() const { return processes_; }
  // The process that holds the boards of layer s whose mover row holds k seeds.
  int owner(int s, int k) const { return owner_[s][k]; }
  // The boards of layer s that `process` holds, in rank order, and how many.
  const std::vector<RankRange>& ranges(int s, int process) const { return ranges_[s][process]; }
  uint64_t boards(int s, int process) const;
  // The process holding board `r` (a rank) of layer s.
  int owner_of(int s, uint64_t r) const {
    const int o = coarse_[s][r >> shift_[s]];
    return o >= 0 ? o : owner_searched(s, r);
  }

 private:
  int processes_;
  std::vector<std::vector<int>> owner_;                      // [s][k]
  std::vector<std::vector<std::vector<RankRange>>> ranges_;  // [s][process]
  std::vector<std::vector<uint64_t>> starts_;                // [s][k]: the first rank of mover k
  // owner_of without a search: the owner of each 2^shift boards of layer s when they have one
  // (-1 where a range starts among them).
  std::vector<int> shift_;
  std::vector<std::vector<int8_t>> coarse_;
  int owner_searched(int s, uint64_t r) const;
};

}  // namespace kalah
