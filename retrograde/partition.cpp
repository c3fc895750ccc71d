// partition.cpp: row pairs to processes, largest first to the least loaded.
#include "retrograde/partition.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace kalah {

Partition::Partition(const Ranker& ranker, int max_seeds, int processes)
    : processes_(processes),
      owner_(max_seeds + 1),
      ranges_(max_seeds + 1, std::vector<std::vector<RankRange>>(processes)),
      starts_(max_seeds + 1),
      shift_(max_seeds + 1, 0),
      coarse_(max_seeds + 1) {
  if (processes > 127) throw std::invalid_argument("at most 127 processes");
  std::vector<uint64_t> held(processes, 0);  // boards of the layers so far, by process
  for (int s = 0; s <= max_seeds; ++s) {
    owner_[s].assign(s + 1, 0);
    std::vector<int> ks((s + 2) / 2);
    std::iota(ks.begin(), ks.end(), 0);
    auto pair_boards = [&](int k) {
      return ranker.row_count(k) * ranker.row_count(s - k) * (2 * k == s ? 1 : 2);
    };
    std::stable_sort(ks.begin(), ks.end(),
                     [&](int a, int b) { return pair_boards(a) > pair_boards(b); });
    // The least loaded in this layer; among those, the one holding the fewest boards of the
    // layers so far (else process 0 would take the largest pair of every layer).
    std::vector<uint64_t> load(processes, 0);
    for (const int k : ks) {
      int p = 0;
      for (int q = 1; q < processes; ++q)
        if (std::tie(load[q], held[q]) < std::tie(load[p], held[p])) p = q;
      load[p] += pair_boards(k);
      owner_[s][k] = owner_[s][s - k] = p;
    }
    for (int p = 0; p < processes; ++p) held[p] += load[p];
    for (int k = 0; k <= s; ++k) {
      const uint64_t begin = ranker.rank_of_rows(s, k, 0, 0);
      starts_[s].push_back(begin);
      auto& mine = ranges_[s][owner_[s][k]];
      const uint64_t end = begin + ranker.row_count(k) * ranker.row_count(s - k);
      if (!mine.empty() && mine.back().end == begin)
        mine.back().end = end;
      else
        mine.push_back({begin, end});
    }
    const uint64_t size = ranker.layer_size(s);
    while ((size >> shift_[s]) >= 4096) ++shift_[s];
    auto& coarse = coarse_[s];
    coarse.resize((size >> shift_[s]) + 1);
    const auto& starts = starts_[s];
    for (size_t i = 0; i < coarse.size(); ++i) {  // one owner if no range starts inside
      const uint64_t first = uint64_t{i} << shift_[s];
      const uint64_t last = std::min(size, first + (uint64_t{1} << shift_[s])) - 1;
      const bool one = first < size && std::upper_bound(starts.begin(), starts.end(), first) ==
                                           std::upper_bound(starts.begin(), starts.end(), last);
      coarse[i] = static_cast<int8_t>(one ? owner_searched(s, first) : -1);
    }
  }
}

uint64_t Partition::boards(int s, int process) const {
  uint64_t n = 0;
  for (const RankRange& r : ranges_[s][process]) n += r.end - r.begin;
  return n;
}

int Partition::owner_searched(int s, uint64_t r) const {
  const auto& starts = starts_[s];
  const size_t k = std::upper_bound(starts.begin(), starts.end(), r) - starts.begin() - 1;
  return owner_[s][k];
}

}  // namespace kalah
