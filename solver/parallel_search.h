// parallel_search.h: solving a position on all cores (docs/design.md §7).
//
// Both searches run on one table shared by all threads (ABDADA: a node's children that other
// threads are searching are taken last). value_parallel finds the position's value alone: MTD(f)
// at the root (solver/mtdf.h), each test "is V at least beta?" run over the root moves by all
// threads, threads beyond the root moves helping with the likeliest, stopped as soon as one move
// reaches beta. analyse_parallel goes on from there: the value settles the best move and bounds
// every other, whose exact value is then found by MTD(f) on that move, every thread on it, over
// the same table (the moves' subtrees transpose); each move's turn and the best line are then read
// from the table. Values, turns and lines never depend on the thread count; node counts do, except
// on one thread.
//
// This is the only part of solver/ that uses threads; it is a library of its own
// (kalah_parallel), so the rest of the core stays single-threaded.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "solver/analysis.h"
#include "solver/leaf_values.h"
#include "solver/transposition_table.h"

namespace kalah {

// Table bytes per root move (the shared table holds that many times the moves). A full analysis
// with a database searches a small tree above it, and a table that stays in the caches is
// faster; a search without one, or a value search of a big game, fills a big table.
inline constexpr size_t kAnalysisTableBytes = size_t{32} << 20;
inline constexpr size_t kSearchTableBytes = size_t{256} << 20;

struct ParallelAnalysis {
  Analysis analysis;  // complete unless interrupted
  uint64_t nodes = 0, probes = 0;
  uint64_t earlier_nodes = 0;  // searched by the runs a checkpoint resumed from
  bool interrupted = false;
  int lower = 0, upper = 0;  // proven bounds on the final margin for the mover (equal if done)
};

// What a full analysis has proven so far: the position's bounds and each legal move's (in pit
// order; final margins for the mover, stores included), and how many moves are exact.
struct MoveBounds {
  int pit = 0;  // 0-based
  int lower = 0, upper = 0;
};
struct AnalysisProgress {
  int done = 0, total = 0;
  int lower = 0, upper = 0;
  std::vector<MoveBounds> moves;
};
// Called on the analysing thread after the value is found and after each test on a move.
using MoveProgress = std::function<void(const AnalysisProgress&)>;
// A long search's progress (`solve --checkpoint`; db/checkpoint.h keeps it in a file): each
// root move's proven bounds (on the move's value to the mover, stores left out: a state belongs
// to a board) and the table entries whose subtrees cost the most. Every bound in it is proven,
// so a search given it back finds the same values and redoes only what it lacks.
struct SearchState {
  std::vector<MoveBounds> moves;
  std::vector<TranspositionTable::Entry> entries;
  uint64_t nodes = 0;  // searched by all runs up to this state
};
struct Checkpointing {
  double seconds = 60;                // between saves, and at least 50 times the last save's cost
  size_t entries = size_t{1} << 22;   // the costliest table entries saved, at most
  std::function<void(const SearchState&)> save;  // called with every search thread stopped
  const SearchState* resume = nullptr;           // an earlier run's state, or null
};

// `leaves` may be null (search alone); `table_bytes` is per root move. Ctrl-C: `stop`.
ParallelAnalysis analyse_parallel(const Rules& rules, const Position& p, const LeafValues* leaves,
                                  size_t table_bytes, const std::atomic<bool>* stop = nullptr,
                                  const MoveProgress& progress = {},
                                  const Checkpointing* checkpoint = nullptr);

struct ParallelValue {
  int lower = 0, upper = 0;  // proven bounds on the final margin for the mover (equal if done)
  int best_pit = -1;         // when done: a move worth the value (0-based; -1 if the game is over)
  uint64_t nodes = 0, probes = 0;
  uint64_t earlier_nodes = 0;  // searched by the runs a checkpoint resumed from
  size_t table_bytes = 0;  // what the shared table had grown to (from 1 MiB) at the end
  bool interrupted = false;
};

// `table_bytes` times the number of root moves is the shared table. `progress`, if given, is
// called after each null-window test with the bounds proven so far.
using ValueProgress = std::function<void(const ParallelValue& so_far)>;
ParallelValue value_parallel(const Rules& rules, const Position& p, const LeafValues* leaves,
                             size_t table_bytes, const std::atomic<bool>* stop = nullptr,
                             const ValueProgress& progress = {},
                             const Checkpointing* checkpoint = nullptr);

// Null-window tests "is the final margin at least beta?" on one position, on all cores over one
// shared table kept between them: the tests of value_parallel's MTD(f), for a caller that picks
// its own (the pie rule's value, solver/openings.h). The position must not be over. With a
// checkpoint, it resumes from the state saved and saves again when destroyed.
struct RootSearch;
class RootTests {
 public:
  RootTests(const Rules& rules, const Position& p, const LeafValues* leaves, size_t table_bytes,
            const std::atomic<bool>* stop = nullptr, const Checkpointing* checkpoint = nullptr);
  ~RootTests();
  // The bounds proven (final margins; all of them so far): one decides the test, unless `stop`
  // was raised.
  Bounds test(int beta);
  // Adds the nodes and probes of this run's tests.
  void add_counts(uint64_t& nodes, uint64_t& probes) const;
  uint64_t earlier_nodes() const;

 private:
  std::unique_ptr<RootSearch> root_;
  int stores_;
};

}  // namespace kalah
