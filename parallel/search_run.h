// search_run.h: one run of a search of a position on all cores: what it is given (SearchSetup),
// what it reports as it goes (SearchProgress), what it keeps for a rerun (SearchState) and what
// it returns (SearchResult). The same for the search of one process (parallel/parallel_search.h)
// and the one spread over processes (parallel/frontier_analysis.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "base/stop.h"
#include "game/value.h"
#include "solver/analysis.h"
#include "game/leaf_values.h"
#include "solver/transposition_table.h"

namespace kalah {

// Table bytes per root move (the shared table holds that many times the moves). A full analysis
// with a database searches a small tree above it, and a table that stays in the caches is
// faster; a search without one, or a value search of a big game, fills a big table
// (docs/design.md §7).
inline constexpr size_t kAnalysisTableBytes = size_t{32} << 20;
inline constexpr size_t kSearchTableBytes = size_t{256} << 20;

// Proven bounds on a root move's value with the stores left out (pit 0-based): V of the board,
// as a SearchState keeps them (a state belongs to a board, whatever the stores).
struct MoveBounds {
  int pit = 0;
  Bounds bounds;
};
// Proven bounds on a root move's final margin for the mover (pit 0-based), as progress reports
// give them: MoveBounds plus the stores.
struct MoveMargin {
  int pit = 0;
  Bounds margin;
};

// What a search has proven so far: the position's final margin, each legal move's (in pit
// order), how many moves are exact, and the nodes searched by this run.
struct SearchProgress {
  Bounds margin;
  int done = 0, total = 0;
  std::vector<MoveMargin> moves;
  uint64_t nodes = 0;
};
// Called on the searching thread after each null-window test (no worker is in the table then);
// over processes also every second between a test's rounds (parallel/frontier_analysis.h).
using ProgressSink = std::function<void(const SearchProgress&)>;

// A long search's progress (`solve --checkpoint`; store/checkpoint.h keeps it in a file): each
// root move's proven bounds and the table entries whose subtrees cost the most. Every bound in it
// is proven, so a search given it back finds the same values and redoes only what it lacks.
struct SearchState {
  std::vector<MoveBounds> moves;
  std::vector<TranspositionTable::Entry> entries;
  uint64_t nodes = 0;  // searched by all runs up to this state
};
struct Checkpointing {
  double seconds = 60;               // between saves, and at least 50 times the last save's cost
  size_t entries = size_t{1} << 22;  // the costliest table entries saved, at most
  std::function<void(const SearchState&)> save;  // called with every search thread stopped
  const SearchState* resume = nullptr;           // an earlier run's state, or null
};

// What a search is given.
struct SearchSetup {
  Rules rules;
  const LeafValues* leaves = nullptr;      // a database that ends the search, or none
  size_t table_bytes = kSearchTableBytes;  // per root move
  const StopFlag* stop = nullptr;          // raised: the search returns the bounds proven
  const Checkpointing* checkpoint = nullptr;
  ProgressSink progress = {};
  // Added to by the search's solvers every few thousand nodes: the nodes searched so far, for
  // a progress report between tests (SearchProgress::nodes is counted only after each).
  std::atomic<uint64_t>* live_nodes = nullptr;
};

// What it returns.
struct SearchResult {
  Bounds margin;      // proven on the final margin for the mover: exact unless stopped
  Analysis analysis;  // a full analysis, when complete
  int best_pit = -1;  // a value search, when complete: a move worth the value (-1: game over)
  uint64_t nodes = 0, probes = 0;
  uint64_t earlier_nodes = 0;  // searched by the runs a checkpoint resumed from
  size_t table_bytes = 0;      // what the shared table had grown to (from 1 MiB)
  StopReason stopped = StopReason::kNone;

  bool complete() const { return stopped == StopReason::kNone; }
};

}  // namespace kalah
