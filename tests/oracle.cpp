// oracle.cpp: the reference game, seed by seed.
#include "tests/oracle.h"

#include <algorithm>

namespace kalah::test {
namespace {

int row_sum(const std::vector<int>& bins, int first, int m) {
  int s = 0;
  for (int i = 0; i < m; ++i) s += bins[first + i];
  return s;
}

}  // namespace

int Oracle::value(const Board& b) {
  const int m = rules_.pits;
  std::vector<int> bins(2 * m + 2, 0);
  for (int i = 0; i < m; ++i) {
    bins[i] = b.pits[i];              // the mover plays South
    bins[m + 1 + i] = b.pits[m + i];  // the opponent North
  }
  return play_out(bins, 0);
}

int Oracle::play_out(const std::vector<int>& bins, int player) {
  const int m = rules_.pits;
  const int south_store = m, north_store = 2 * m + 1;
  const int first_pit[2] = {0, m + 1};
  const int store[2] = {south_store, north_store};
  const int seeds[2] = {row_sum(bins, 0, m), row_sum(bins, m + 1, m)};

  const bool over =
      rules_.end == End::kImmediate ? (seeds[0] == 0 || seeds[1] == 0) : seeds[player] == 0;
  if (over) {
    int diff = bins[south_store] - bins[north_store];
    if (rules_.remainder == Remainder::kOwner) diff += seeds[0] - seeds[1];
    return diff;
  }
  const auto key = std::make_pair(bins, player);
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;

  int best = player == 0 ? -1000000 : 1000000;
  for (int i = 0; i < m; ++i) {
    const int origin = first_pit[player] + i;
    if (bins[origin] == 0) continue;
    std::vector<int> x = bins;
    int hand = x[origin], at = origin;
    x[origin] = 0;
    while (hand > 0) {
      at = (at + 1) % (2 * m + 2);
      if (at == store[1 - player]) continue;  // never into the opponent's store
      ++x[at];
      --hand;
    }
    int next = 1 - player;
    if (at == store[player]) {
      next = player;
    } else if (at >= first_pit[player] && at < first_pit[player] + m && x[at] == 1) {
      const int opposite = 2 * m - at;  // bins i and 2m-i face each other
      if (x[opposite] > 0 || rules_.capture == Capture::kEmpty) {
        x[store[player]] += 1 + x[opposite];
        x[at] = 0;
        x[opposite] = 0;
      }
    }
    const int v = play_out(x, next);
    best = player == 0 ? std::max(best, v) : std::min(best, v);
  }
  memo_[key] = best;
  return best;
}

}  // namespace kalah::test
