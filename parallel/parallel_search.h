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
// The threads are oneTBB's (the caller's arena); with the frontier search's slots this is the
// library kalah_parallel, so the rest of the core stays single-threaded.
#pragma once

#include <memory>

#include "parallel/search_run.h"

namespace kalah {

// The value, and a move worth it (SearchResult::best_pit). With a checkpoint, it resumes from
// the state saved and saves now and then and at the end.
SearchResult value_parallel(const SearchSetup& setup, const Position& p);
// The full analysis: every move's value and turn, a best line.
SearchResult analyse_parallel(const SearchSetup& setup, const Position& p);

// Null-window tests "is the final margin at least beta?" on one position, on all cores over one
// shared table kept between them: the tests of value_parallel's MTD(f), for a caller that picks
// its own (the pie rule's value, solver/openings.h). The position must not be over. With a
// checkpoint, it resumes from the state saved and saves again when destroyed.
struct RootSearch;
class RootTests {
 public:
  RootTests(const SearchSetup& setup, const Position& p);
  ~RootTests();
  // The bounds proven (final margins; all of them so far): one decides the test, unless the
  // setup's stop was raised.
  Bounds test(int beta);
  // Adds the nodes and probes of this run's tests.
  void add_counts(uint64_t& nodes, uint64_t& probes) const;
  uint64_t earlier_nodes() const;

 private:
  std::unique_ptr<RootSearch> root_;
  int stores_;
};

}  // namespace kalah
