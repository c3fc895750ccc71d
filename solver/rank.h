// rank.h: a bijection between the boards of a layer and 0..size-1 (design §4).
//
// A layer is every board with s seeds on its 2m pits; it holds C(s+2m-1, 2m-1) boards. A board is
// ranked by its two rows separately: first by k, the seeds in the mover's row, then by the rank of
// the mover's row among rows of k seeds, then by the rank of the opponent's row among rows of s-k
// seeds. Summing over k is Vandermonde's identity, so there are no holes.
//
// A row of k seeds is ranked by the combinatorial number system: read it from the pit next to the
// store back, c[j] = row[m-1-j]; its m-1 "bars" sit at p_j = c[0]+..+c[j]+j, and
// rank = sum_j C(p_j, j+1), in 0..C(k+m-1, m-1)-1. Rank 0 is all seeds in the first pit, the top
// rank all seeds in the pit next to the store.
//
// Why this split: a move that keeps all seeds on the board changes only the mover's row, and the
// child (seen from the opponent) has the old opponent row as its mover row, the most significant
// part of its rank. So the same-layer children of all boards (., b) fall in one small slice (b, .),
// which a database builder can keep in cache.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/rules.h"

namespace kalah {

class Ranker {
 public:
  // Ranks layers 0..max_seeds of m-pit boards. Throws std::overflow_error when one of those layers
  // holds 2^64 boards or more, std::invalid_argument for m or max_seeds out of range.
  Ranker(int m, int max_seeds);

  int pits() const { return m_; }
  int max_seeds() const { return max_seeds_; }

  // Boards with s seeds; C(s+2m-1, 2m-1).
  uint64_t layer_size(int s) const { return offset_[s].back(); }
  // First rank in layer s of the boards whose mover row holds k seeds.
  uint64_t sublayer_offset(int s, int k) const { return offset_[s][k]; }
  // Rows of m pits holding k seeds; C(k+m-1, m-1).
  uint64_t row_count(int k) const { return row_count_[k]; }

  // Rank of b within layer seeds(b), which must be <= max_seeds.
  uint64_t rank(const Board& b) const;
  // The board of layer s with rank r < layer_size(s).
  Board unrank(int s, uint64_t r) const;

  // The board of rank 0 in layer s, and the successor in rank order (false after the last board,
  // leaving b unspecified). A successor costs O(m), far less than an unrank.
  Board first(int s) const;
  bool next(Board& b) const;

  uint64_t row_rank(const uint8_t* row) const;
  void row_unrank(int k, uint64_t r, uint8_t* row) const;
  void first_row(int k, uint8_t* row) const;
  bool next_row(uint8_t* row) const;

  // C(n, k); exact below 2^64, UINT64_MAX past it.
  static uint64_t binomial(int n, int k);

 private:
  int m_;
  int max_seeds_;
  std::vector<uint64_t> row_count_;            // by k
  std::vector<std::vector<uint64_t>> offset_;  // [s][k]: boards of layer s with fewer than k
                                               // seeds in the mover's row; [s][s+1] = layer size
};

}  // namespace kalah
