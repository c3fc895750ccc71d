// fair.h: fair starts (`kalah fair`, docs/design.md §11): the positions a few seeds away from the
// start of Kalah(m,n) that perfect players draw, as Neller's FairKalah defines them.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/stop.h"
#include "game/rules.h"
#include "game/value.h"
#include "game/leaf_values.h"

namespace kalah {

struct FairCandidate {
  Position position;  // South, the first player, to move
  int moved = 0;      // seeds moved from the start: 1..K
  // What is proven of its final margin for South under perfect play: nothing yet
  // (margin_bounds), its sign, or the exact value.
  Bounds margin;

  bool fair() const { return margin.lower == 0 && margin.upper == 0; }
  // Whether the sign is known: fair, below 0 (North wins) or above (South wins).
  bool sign_known() const { return margin.lower > 0 || margin.upper < 0 || fair(); }
};

// Every distinct position reachable from the start of Kalah(m, seeds) by moving 1..moved seeds,
// one at a time, from a pit (either row) to any other pit or either store; the start itself left
// out. Sorted by their absolute notation; values unknown (margin_bounds). Throws
// std::invalid_argument for seeds out of range or moved outside 1..3.
std::vector<FairCandidate> fair_candidates(int m, int seeds, int moved);

// What a run found: how many candidates have each result, in order (with exact values each
// final margin, "-4", "0", "+2"; else "<0", "0", ">0"), the fair ones and those North wins
// (absolute, sorted).
struct FairSummary {
  std::vector<std::pair<std::string, size_t>> values;
  std::vector<std::string> fair, below;
  size_t settled = 0;
};
FairSummary summarize(const std::vector<FairCandidate>& candidates, int m, bool exact);

// How the candidates are settled.
struct FairSearch {
  Rules rules;
  const LeafValues* leaves = nullptr;  // a database, or none
  int threads = 1;
  size_t table_bytes = size_t{4} << 30;  // the most the one table of all threads grows to
  const StopFlag* stop = nullptr;
  // Each candidate's exact value, or (false) only whether it is 0, below or above: one or two
  // null-window tests ("is it at least 1?", then "at least 0?"), far cheaper.
  bool exact = false;
  // Called on the calling thread as each candidate is settled, with its index.
  std::function<void(size_t index)> on_settled;
};

// Settles every candidate not settled yet (a checkpoint's are skipped), on s.threads threads
// sharing one transposition table, candidates taken in order. A stop leaves the rest as they
// were; returns how many are settled in all.
size_t settle_candidates(const FairSearch& s, std::vector<FairCandidate>& candidates);
// Whether c is settled: its exact margin known (exact), else its sign.
bool is_settled(const FairCandidate& c, bool exact);

}  // namespace kalah
