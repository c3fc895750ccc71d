// rank.cpp: binomial tables, row ranks and the layer successor.
#include "db/rank.h"

#include <array>
#include <limits>
#include <stdexcept>
#include <string>

namespace kalah {
namespace {

using detail::kBinomials;
using detail::kSaturated;

uint64_t checked_mul_add(uint64_t a, uint64_t b, uint64_t c, int m, int s) {
  uint64_t r;
  if (a == kSaturated || b == kSaturated || __builtin_mul_overflow(a, b, &r) ||
      __builtin_add_overflow(r, c, &r) || r == kSaturated)
    throw std::overflow_error("layer " + std::to_string(s) + " of " + std::to_string(m) +
                              "-pit boards has 2^64 boards or more; ranks would not fit 64 bits");
  return r;
}

}  // namespace

uint64_t Ranker::binomial(int n, int k) {
  if (k < 0 || n < 0 || k > n) return 0;
  if (n >= detail::kBinomialRows || k >= detail::kBinomialCols)
    throw std::out_of_range("binomial table too small");
  return kBinomials.c[n][k];
}

Ranker::Ranker(int m, int max_seeds) : m_(m), max_seeds_(max_seeds) {
  validate(Rules{.pits = m});
  if (max_seeds < 0 || max_seeds > kMaxBoardSeeds)
    throw std::invalid_argument("seeds on a board must be 0.." + std::to_string(kMaxBoardSeeds) +
                                ", got " + std::to_string(max_seeds));
  for (int k = 0; k <= max_seeds; ++k) row_count_.push_back(binomial(k + m - 1, m - 1));
  offset_.assign((max_seeds + 1) * (max_seeds + 2), 0);
  for (int s = 0; s <= max_seeds; ++s) {
    uint64_t total = 0;
    for (int k = 0; k <= s; ++k) {
      total = checked_mul_add(row_count_[k], row_count_[s - k], total, m, s);
      offset_[s * (max_seeds + 2) + k + 1] = total;
    }
  }
}

void Ranker::row_unrank(int k, uint64_t r, uint8_t* row) const {
  // Find the bars from the top: the largest p with C(p, j+1) <= the remaining rank.
  int prev_bar = k + m_ - 1;  // bars lie below this
  for (int j = m_ - 2; j >= 0; --j) {
    int p = prev_bar - 1;
    while (kBinomials.c[p][j + 1] > r) --p;
    r -= kBinomials.c[p][j + 1];
    row[m_ - 2 - j] = static_cast<uint8_t>(prev_bar - p - 1);  // c[j+1]
    prev_bar = p;
  }
  row[m_ - 1] = static_cast<uint8_t>(prev_bar);  // c[0]
}

void Ranker::first_row(int k, uint8_t* row) const {
  for (int i = 1; i < m_; ++i) row[i] = 0;
  row[0] = static_cast<uint8_t>(k);
}

bool Ranker::next_row(uint8_t* row) const {
  // Colex successor of the bars: move the lowest movable bar up one place, the bars below it back
  // to the bottom. In pits (c[j] = row[m-1-j]): the first j with c[j+1] > 0 takes one seed from
  // c[j+1] and all the seeds of c[0..j-1].
  int below = 0;
  for (int j = 0; j + 1 < m_; ++j) {
    uint8_t& cj = row[m_ - 1 - j];
    uint8_t& next = row[m_ - 2 - j];
    if (next > 0) {
      const int moved = below + cj + 1;
      for (int i = 0; i < j; ++i) row[m_ - 1 - i] = 0;
      cj = static_cast<uint8_t>(moved);
      --next;
      return true;
    }
    below += cj;
  }
  return false;
}

uint64_t Ranker::rank(const Board& b) const {
  const int k = mover_seeds(b, m_);
  const int s = k + opponent_seeds(b, m_);
  return rank_of_rows(s, k, row_rank(&b.pits[0]), row_rank(&b.pits[m_]));
}

Board Ranker::unrank(int s, uint64_t r) const {
  int k = 0;
  while (offset(s, k + 1) <= r) ++k;
  r -= offset(s, k);
  const uint64_t opp_count = row_count_[s - k];
  Board b;
  row_unrank(k, r / opp_count, &b.pits[0]);
  row_unrank(s - k, r % opp_count, &b.pits[m_]);
  return b;
}

Board Ranker::first(int s) const {
  Board b;
  first_row(0, &b.pits[0]);
  first_row(s, &b.pits[m_]);
  return b;
}

bool Ranker::next(Board& b) const {
  if (next_row(&b.pits[m_])) return true;
  const int k = mover_seeds(b, m_);
  const int s = k + opponent_seeds(b, m_);
  first_row(s - k, &b.pits[m_]);
  if (next_row(&b.pits[0])) return true;
  if (k == s) return false;
  first_row(k + 1, &b.pits[0]);
  first_row(s - k - 1, &b.pits[m_]);
  return true;
}

}  // namespace kalah
