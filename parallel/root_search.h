// root_search.h: the machinery of parallel_search.h (internal to kalah_parallel): the root moves,
// their solvers over one shared table, the null-window tests run on them, and checkpoints.
#pragma once

#include <memory>
#include <vector>

#include "parallel/parallel_search.h"
#include "parallel/pauses.h"
#include "solver/mtdf.h"
#include "solver/solver.h"

namespace kalah {

// A root move and its solvers, one per thread, over the shared table.
struct RootMove {
  int pit;
  MoveResult result;
  std::vector<std::unique_ptr<Solver>> helpers;
  Bounds bounds;  // on the move's value to the mover, stores left out
};

// The position's value lies between the best proven move value and the best bound of any move.
Bounds root_bounds(const std::vector<RootMove>& moves);
// Adds up the nodes and probes of every solver of the moves.
void add_counts(const std::vector<RootMove>& moves, uint64_t& nodes, uint64_t& probes);
// Grows a shared table that asked to, splitting its buckets on all threads.
void grow_table(TranspositionTable& table);
// The null-window test beta on order[first, first + count) by every thread (root_search.cpp).
bool search_moves(const std::vector<RootMove*>& order, int first, int count,
                  TranspositionTable& table, int beta, int threads, Pauses* pauses);
// One MTD(f) test at the root over the moves not yet decided: the bounds they prove.
Bounds test_root(std::vector<RootMove>& moves, TranspositionTable& table, int beta, int threads,
                 Pauses* pauses);

// The root moves, a shared table and a solver per move and thread over it: the state of a
// value search, and of a full analysis, which goes on from it. With checkpoints, it starts from
// the state saved and stops its searches now and then to save it again.
struct RootSearch {
  int seeds;  // on the root board
  std::vector<RootMove> moves;
  int threads;
  TranspositionTable table;
  const Checkpointing* checkpoint;
  uint64_t earlier_nodes = 0;  // of the runs before this one
  std::unique_ptr<Pauses> pauses;

  RootSearch(const SearchSetup& setup, const Board& b);
  // Starts from what an earlier run saved.
  void resume(const SearchState& state);
  // Saves the state; every thread is out of the table.
  void save() const;

  // MTD(f) at the root: the bounds proven on the board's V, its value unless `after_test` (as
  // mtdf's) stopped it.
  template <class AfterTest>
  Bounds value(AfterTest&& after_test) {
    Bounds bounds{-seeds, seeds};
    mtdf(
        bounds, 0, [&](int beta) { return test_root(moves, table, beta, threads, pauses.get()); },
        after_test);
    return bounds;
  }

  // MTD(f) on one move's value, every thread on it, from the bounds the value search left.
  template <class AfterTest>
  void settle(RootMove& t, AfterTest&& after_test) {
    const std::vector<RootMove*> order{&t};
    Bounds bounds = t.bounds;
    mtdf(
        bounds, t.bounds.upper,
        [&](int beta) {
          search_moves(order, 0, 1, table, beta, threads, pauses.get());
          return t.bounds;
        },
        after_test);
  }
};

}  // namespace kalah
