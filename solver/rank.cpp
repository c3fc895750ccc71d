// rank.cpp: binomial tables, row ranks and the layer successor.
#include "solver/rank.h"

#include <array>
#include <limits>
#include <stdexcept>
#include <string>

namespace kalah {
namespace {

constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();
constexpr int kBinomialRows = kMaxBoardSeeds + 2 * kMaxPits + 1;
constexpr int kBinomialCols = 2 * kMaxPits + 1;

struct BinomialTable {
  std::array<std::array<uint64_t, kBinomialCols>, kBinomialRows> c{};
  BinomialTable() {
    for (int n = 0; n < kBinomialRows; ++n) {
      c[n][0] = 1;
      for (int k = 1; k < kBinomialCols && k <= n; ++k) {
        const uint64_t a = c[n - 1][k - 1], b = c[n - 1][k];
        c[n][k] = (a == kSaturated || b == kSaturated || a > kSaturated - b) ? kSaturated : a + b;
      }
    }
  }
};

const BinomialTable& table() {
  static const BinomialTable t;
  return t;
}

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
  if (n >= kBinomialRows || k >= kBinomialCols) throw std::out_of_range("binomial table too small");
  return table().c[n][k];
}

Ranker::Ranker(int m, int max_seeds) : m_(m), max_seeds_(max_seeds) {
  validate(Rules{.pits = m});
  if (max_seeds < 0 || max_seeds > kMaxBoardSeeds)
    throw std::invalid_argument("seeds on a board must be 0.." + std::to_string(kMaxBoardSeeds) +
                                ", got " + std::to_string(max_seeds));
  for (int k = 0; k <= max_seeds; ++k) row_count_.push_back(binomial(k + m - 1, m - 1));
  offset_.resize(max_seeds + 1);
  for (int s = 0; s <= max_seeds; ++s) {
    uint64_t total = 0;
    offset_[s].push_back(0);
    for (int k = 0; k <= s; ++k) {
      total = checked_mul_add(row_count_[k], row_count_[s - k], total, m, s);
      offset_[s].push_back(total);
    }
  }
}

// Rows are ranked from their last pit (next to the store) down: c[j] below is row[m-1-j]. The pits
// by the store then vary fastest in rank order, which made layer files about 20 % smaller under
// zstd than the other direction (measured on m = 6, layer 17).
uint64_t Ranker::row_rank(const uint8_t* row) const {
  uint64_t r = 0;
  int bar = 0;
  for (int j = 0; j + 1 < m_; ++j) {
    bar += row[m_ - 1 - j];
    r += table().c[bar + j][j + 1];
  }
  return r;
}

void Ranker::row_unrank(int k, uint64_t r, uint8_t* row) const {
  // Find the bars from the top: the largest p with C(p, j+1) <= the remaining rank.
  int prev_bar = k + m_ - 1;  // bars lie below this
  for (int j = m_ - 2; j >= 0; --j) {
    int p = prev_bar - 1;
    while (table().c[p][j + 1] > r) --p;
    r -= table().c[p][j + 1];
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
  return offset_[s][k] + row_rank(&b.pits[0]) * row_count_[s - k] + row_rank(&b.pits[m_]);
}

Board Ranker::unrank(int s, uint64_t r) const {
  const auto& off = offset_[s];
  int k = 0;
  while (off[k + 1] <= r) ++k;
  r -= off[k];
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
