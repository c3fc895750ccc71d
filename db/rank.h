// rank.h: a bijection between the boards of a layer and 0..size-1 (docs/design.md §4).
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

#include "game/rules.h"

namespace kalah {

namespace detail {
inline constexpr int kBinomialRows = kMaxBoardSeeds + 2 * kMaxPits + 1;
inline constexpr int kBinomialCols = 2 * kMaxPits + 1;
inline constexpr uint64_t kSaturated = ~uint64_t{0};
struct BinomialTable {
  uint64_t c[kBinomialRows][kBinomialCols] = {};
};
// C(n, k) for every n, k the ranks need, saturating at kSaturated; built at compile time.
constexpr BinomialTable make_binomials() {
  BinomialTable t;
  for (int n = 0; n < kBinomialRows; ++n) {
    t.c[n][0] = 1;
    for (int k = 1; k < kBinomialCols && k <= n; ++k) {
      const uint64_t a = t.c[n - 1][k - 1], b = t.c[n - 1][k];
      t.c[n][k] = (a == kSaturated || b == kSaturated || a > kSaturated - b) ? kSaturated : a + b;
    }
  }
  return t;
}
inline constexpr BinomialTable kBinomials = make_binomials();

// Ranker::row_rank for rows of M pits, unrolled: the search ranks every leaf it probes, and a
// loop over a run-time m was 11 % of the Kalah(6,4) value's instructions (callgrind).
template <int M>
uint64_t row_rank(const uint8_t* row) {
  uint64_t r = 0;
  int bar = 0;
  for (int j = 0; j + 1 < M; ++j) {
    bar += row[M - 1 - j];
    r += kBinomials.c[bar + j][j + 1];
  }
  return r;
}
}  // namespace detail

class Ranker {
 public:
  // Ranks layers 0..max_seeds of m-pit boards. Throws std::overflow_error when one of those layers
  // holds 2^64 boards or more, std::invalid_argument for m or max_seeds out of range.
  Ranker(int m, int max_seeds);

  int pits() const { return m_; }
  int max_seeds() const { return max_seeds_; }

  // Boards with s seeds; C(s+2m-1, 2m-1).
  uint64_t layer_size(int s) const { return offset(s, s + 1); }
  // Rows of m pits holding k seeds; C(k+m-1, m-1).
  uint64_t row_count(int k) const { return row_count_[k]; }

  // Rank of b within layer seeds(b), which must be <= max_seeds.
  uint64_t rank(const Board& b) const;
  // The same from its parts: layer s, k seeds and row rank `mover` in the mover's row, row rank
  // `opponent` in the other. For callers that know a row's rank already.
  uint64_t rank_of_rows(int s, int k, uint64_t mover, uint64_t opponent) const {
    return offset(s, k) + mover * row_count_[s - k] + opponent;
  }
  // The board of layer s with rank r < layer_size(s).
  Board unrank(int s, uint64_t r) const;

  // The board of rank 0 in layer s, and the successor in rank order (false after the last board,
  // leaving b unspecified). A successor costs O(m), far less than an unrank.
  Board first(int s) const;
  bool next(Board& b) const;

  // Rows are ranked from their last pit (next to the store) down: c[j] is row[m-1-j]. The pits
  // by the store then vary fastest in rank order, which made layer files about 20 % smaller under
  // zstd than the other direction (measured on m = 6, layer 17).
  uint64_t row_rank(const uint8_t* row) const {
    switch (m_) {
      case 1:
        return detail::row_rank<1>(row);
      case 2:
        return detail::row_rank<2>(row);
      case 3:
        return detail::row_rank<3>(row);
      case 4:
        return detail::row_rank<4>(row);
      case 5:
        return detail::row_rank<5>(row);
      case 6:
        return detail::row_rank<6>(row);
      case 7:
        return detail::row_rank<7>(row);
      default:
        return detail::row_rank<8>(row);  // m <= kMaxPits, checked by the constructor
    }
  }
  void row_unrank(int k, uint64_t r, uint8_t* row) const;
  void first_row(int k, uint8_t* row) const;
  bool next_row(uint8_t* row) const;

  // C(n, k); exact below 2^64, UINT64_MAX past it.
  static uint64_t binomial(int n, int k);

 private:
  // Boards of layer s with fewer than k seeds in the mover's row; k = s+1 gives the layer size.
  uint64_t offset(int s, int k) const { return offset_[s * (max_seeds_ + 2) + k]; }

  int m_;
  int max_seeds_;
  std::vector<uint64_t> row_count_;  // by k
  std::vector<uint64_t> offset_;     // [s * (max_seeds + 2) + k]
};

}  // namespace kalah
