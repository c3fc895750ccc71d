// row_moves.cpp: tabulating the rows a move leaves.
#include "retrograde/row_moves.h"

#include <algorithm>
#include <array>

namespace kalah {

RowSet::RowSet(const Ranker& ranker, int seeds) : k(seeds), m(ranker.pits()) {
  std::vector<std::pair<int, uint64_t>> order;  // (-Φ, rank)
  std::array<uint8_t, kMaxPits> row{};
  ranker.first_row(k, row.data());
  uint64_t rank = 0;
  do {
    order.emplace_back(-row_potential(row.data(), m), rank++);
  } while (ranker.next_row(row.data()));
  std::sort(order.begin(), order.end());
  pits.resize(order.size() * m);
  for (size_t i = 0; i < order.size(); ++i) {
    ranker.row_unrank(k, order[i].second, &pits[i * m]);
    ranks.push_back(order[i].second);
    if (i + 1 == order.size() || order[i + 1].first != order[i].first) group_end.push_back(i + 1);
  }
}

RowMoves::RowMoves(const Ranker& ranker, const RowSet& set) {
  const int m = set.m;
  const size_t n = set.size() * m;
  sown.assign(n, 0);
  sown_captured.assign(n, 0);
  emptied.assign(n, 0);
  fed.assign(n, 0);
  std::array<uint8_t, kMaxPits> r;
  for (size_t i = 0; i < set.size(); ++i) {
    const uint8_t* row = set.row(i);
    for (int p = 0; p < m; ++p) {
      const size_t at = i * m + p;
      std::copy(row, row + m, r.begin());
      r[p] = 0;
      emptied[at] = ranker.row_rank(r.data());
      const int last = std::min(p + row[p], m - 1);  // the last pit the sowing reaches
      for (int t = p + 1; t <= last; ++t) ++r[t];
      if (row[p] > 0) sown[at] = ranker.row_rank(r.data());
      if (row[p] > 0 && p + row[p] < m && row[last] == 0) {
        --r[last];
        sown_captured[at] = ranker.row_rank(r.data());
      }
      std::copy(row, row + m, r.begin());
      for (int t = 0; t <= p; ++t) ++r[t];
      fed[at] = ranker.row_rank(r.data());
    }
  }
}

}  // namespace kalah
