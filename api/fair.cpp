// fair.cpp: fair starts (api/fair.h).
#include "api/fair.h"

#include <map>

#include "solver/notation.h"

namespace kalah {
namespace {

// A position of South to move as its 2m+2 absolute bins, and back.
std::vector<int> bins_of(const Position& p, int m) {
  std::vector<int> bins(2 * m + 2);
  for (int i = 0; i < m; ++i) {
    bins[i] = p.board.pits[i];
    bins[m + 1 + i] = p.board.pits[m + i];
  }
  bins[m] = p.mover_store;
  bins[2 * m + 1] = p.opponent_store;
  return bins;
}
Position south_to_move(const std::vector<int>& bins, int m) {
  Position p;
  for (int i = 0; i < m; ++i) {
    p.board.pits[i] = static_cast<uint8_t>(bins[i]);
    p.board.pits[m + i] = static_cast<uint8_t>(bins[m + 1 + i]);
  }
  p.mover_store = bins[m];
  p.opponent_store = bins[2 * m + 1];
  return p;
}

}  // namespace

std::vector<FairCandidate> fair_candidates(int m, int seeds, int moved) {
  const Position start = start_position(m, seeds);
  std::map<std::vector<int>, int> distance{{bins_of(start, m), 0}};
  std::vector<std::vector<int>> level{bins_of(start, m)};
  const int n = 2 * m + 2;
  for (int d = 1; d <= moved; ++d) {
    std::vector<std::vector<int>> next;
    for (const std::vector<int>& bins : level)
      for (int from = 0; from < n; ++from) {
        if (from == m || from == 2 * m + 1 || bins[from] == 0) continue;  // from a pit
        for (int to = 0; to < n; ++to) {
          if (to == from) continue;
          std::vector<int> b = bins;
          --b[from];
          ++b[to];
          if (distance.emplace(b, d).second) next.push_back(std::move(b));
        }
      }
    level = std::move(next);
  }
  std::map<std::string, FairCandidate> sorted;
  for (const auto& [bins, d] : distance) {
    if (d == 0) continue;
    const Position p = south_to_move(bins, m);
    sorted.emplace(format_absolute(p, m), FairCandidate{p, d, 0});
  }
  std::vector<FairCandidate> out;
  for (auto& [text, c] : sorted) out.push_back(c);
  return out;
}

size_t value_candidates(const Query& base, std::vector<FairCandidate>& candidates,
                        const std::function<void(size_t)>& done) {
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (base.stop && base.stop->raised()) return i;
    Query q = base;
    q.position = candidates[i].position;
    q.ask = Ask::kValue;
    const Outcome o = run(q);
    if (!o.complete()) return i;
    candidates[i].value = o.margin.lower;
    if (done) done(i + 1);
  }
  return candidates.size();
}

}  // namespace kalah
