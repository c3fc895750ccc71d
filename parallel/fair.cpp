// fair.cpp: fair starts (parallel/fair.h).
#include "parallel/fair.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "game/notation.h"
#include "parallel/slot_pool.h"

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
  if (moved < 1 || moved > 3)
    throw std::invalid_argument("seeds moved must be 1..3, got " + std::to_string(moved));
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
    sorted.emplace(format_absolute(p, m), FairCandidate{p, d, margin_bounds(p)});
  }
  std::vector<FairCandidate> out;
  for (auto& [text, c] : sorted) out.push_back(c);
  return out;
}

FairSummary summarize(const std::vector<FairCandidate>& candidates, int m, bool exact) {
  std::map<int, std::pair<std::string, size_t>> by_value;  // ordered by the value
  FairSummary out;
  for (const FairCandidate& c : candidates) {
    if (!is_settled(c, exact)) continue;
    ++out.settled;
    const int order = exact ? c.margin.lower : c.fair() ? 0 : c.margin.lower > 0 ? 1 : -1;
    auto& [key, count] = by_value[order];
    key = exact ? signed_number(order) : order == 0 ? "0" : order > 0 ? ">0" : "<0";
    ++count;
    if (c.fair()) out.fair.push_back(format_absolute(c.position, m));
    if (c.margin.upper < 0) out.below.push_back(format_absolute(c.position, m));
  }
  for (const auto& [order, value] : by_value) out.values.push_back(value);
  return out;
}

bool is_settled(const FairCandidate& c, bool exact) {
  return exact ? c.margin.exact() : c.sign_known();
}

namespace {

// The next test of an unsettled candidate, "is the margin at least beta?": the first asks
// whether South wins (beta 1); a margin known to be at most 0 is then tested at its bound,
// one known to be at least 1 just above it (MTD(f)'s steps, docs/design.md §11).
int next_beta(const Bounds& v) {
  if (v.upper <= 0) return v.upper;
  if (v.lower >= 1) return v.lower + 1;
  return 1;
}

}  // namespace

size_t settle_candidates(const FairSearch& s, std::vector<FairCandidate>& candidates) {
  const int slots = std::max(1, s.threads);
  SlotPool pool(s.rules, s.leaves, slots, s.table_bytes, s.stop);
  const auto stores = [&](size_t i) {
    return candidates[i].position.mover_store - candidates[i].position.opponent_store;
  };
  size_t next = 0, in_flight = 0;
  const auto submit = [&](size_t i) {
    const int beta = next_beta(candidates[i].margin) - stores(i);
    pool.submit({i + 1, candidates[i].position.board, beta});
    ++in_flight;
  };
  const auto stopped = [&] { return s.stop && s.stop->raised(); };
  // A few jobs a slot queued, no more: a candidate's second test follows its first closely, while
  // the table still holds its tree.
  for (;;) {
    for (; next < candidates.size() && in_flight < size_t(2 * slots) && !stopped(); ++next)
      if (!is_settled(candidates[next], s.exact)) submit(next);
    if (in_flight == 0) break;
    for (const LeafAnswer& a : pool.answers(0.25)) {
      --in_flight;
      const size_t i = a.id - 1;
      Bounds& v = candidates[i].margin;  // the answer's bounds are on V; the margin adds stores
      v.lower = std::max(v.lower, a.lower + stores(i));
      v.upper = std::min(v.upper, a.upper + stores(i));
      if (is_settled(candidates[i], s.exact)) {
        if (s.on_settled) s.on_settled(i);
      } else if (!stopped()) {
        submit(i);
      }
    }
  }
  return static_cast<size_t>(
      std::count_if(candidates.begin(), candidates.end(),
                    [&](const FairCandidate& c) { return is_settled(c, s.exact); }));
}

}  // namespace kalah
