// solver.h: exact values of boards by alpha-beta search over V (docs/design.md §7).
//
// Fail-soft alpha-beta with a transposition table of proven bounds, MTD(f) on top (solver/mtdf.h),
// and exact values from a LeafValues (a database) for boards with few seeds. Bounds: -s <= V <= s
// with s seeds on the board.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "base/stop.h"
#include "game/rules.h"
#include "game/value.h"
#include "game/leaf_values.h"
#include "solver/transposition_table.h"

namespace kalah {

// Why a search left its table and returned early without its answer: no end and no stop
// (base/stop.h), since its caller acts and searches again.
enum class Leave : uint8_t {
  kNone,   // it has its answer
  kPause,  // a checkpoint is due: every thread leaves the table, then the search goes on
  kGrow,   // the shared table grows: every thread leaves it, then the search goes on
};

// One search thread: its own table and counters. Not thread-safe; run one per thread.
class Solver {
 public:
  static constexpr size_t kDefaultTableBytes = size_t{64} << 20;
  // How many seeds above a database's top layer the table starts (see untabled_seeds_).
  static constexpr int kUntabledSeeds = 4;

  // Throws std::invalid_argument for rules out of range. `leaves` may be null (search alone).
  explicit Solver(const Rules& rules, size_t table_bytes = kDefaultTableBytes,
                  const LeafValues* leaves = nullptr);
  // A solver of a parallel search: `table` is shared by all its threads (ABDADA: a node's
  // children that other threads are searching are taken last).
  Solver(const Rules& rules, TranspositionTable& table, const LeafValues* leaves);

  const Rules& rules() const { return rules_; }

  // Exact V of b (MTD(f): a sequence of null-window searches).
  int value(const Board& b);
  // Fail-soft alpha-beta: a result r <= alpha proves V <= r, r >= beta proves V >= r, otherwise
  // V == r; unless the search left the table (left_table()), when it proves nothing.
  int search(const Board& b, int alpha, int beta);
  // Why the last search() returned without its answer, for the caller to act on and search
  // again; Leave::kNone when it has its answer. value(), move_reaches() and proving_move()
  // never leave (std::logic_error).
  Leave left_table() const { return left_; }
  // Whether playing `pit` on b is worth at least v to the mover (one null-window search).
  bool move_reaches(const Board& b, int pit, int v);
  // A pit whose move is worth at least v to the mover, or -1 when V(b) < v: the moves in search
  // order, each by a null-window search, after the children whose values are known at once.
  // b must be neither finished nor in the leaves.
  int proving_move(const Board& b, int v);

  // The bounds on V proven so far by the running or last value() call: after an interruption,
  // what is known.
  int lower_bound() const { return bounds_.lower; }
  int upper_bound() const { return bounds_.upper; }

  // A raised stop (Ctrl-C, a deadline) or cancel (another thread's search made this one moot)
  // ends a search soon after: it throws SearchInterrupted with the flag's reason, the one
  // exception, since the search must unwind. A raised pause (a parallel search stops its threads
  // so that a checkpoint sees the table with nobody in it, then goes on) or a shared table that
  // must grow makes search() return early instead, left_table() saying why.
  void set_stop_flag(const StopFlag* stop) { stop_ = stop; }
  void set_cancel_flag(const StopFlag* cancel) { cancel_ = cancel; }
  void set_pause_flag(const std::atomic<bool>* pause) { pause_ = pause; }
  // The only thread in a shared table (reading it once the search is over) does not leave it
  // for its growth: the table grows before the next search.
  void stay_for_growth() { leaves_for_growth_ = false; }
  // `counter` is added the nodes searched every kInterruptInterval nodes (any thread may read
  // it): a search's nodes so far, between its results.
  void set_node_counter(std::atomic<uint64_t>* counter) { counter_ = counter; }

  uint64_t nodes() const { return nodes_; }
  uint64_t probes() const { return probes_; }

 private:
  struct Node;
  struct Children;
  static constexpr uint64_t kInterruptInterval = 4096;  // nodes between checks, a power of 2
  // At every kInterruptInterval-th node: throws for a stop or cancel; true (left_ set) when the
  // search must leave the table for a pause or growth.
  bool must_leave();
  void check_stayed(const char* call) const;
  // search() of a board neither finished nor in the leaves, with s seeds: what generate() knows
  // of every child it leaves to search, so the child's search skips both checks.
  int search(const Board& b, int s, int alpha, int beta);
  // Plays every move of b into `children`, prefetching each child's table bucket or leaf value.
  // b holds `on_board` seeds (the caller knows them).
  void generate(const Board& b, int on_board, Children& children) const;
  // Records the children whose values are known at once (finished, in the leaves, or settled by
  // their table bounds) and orders the others for search; returns how many to search.
  int order(Children& children, int table_move, Node& node);

  Rules rules_;
  std::unique_ptr<TranspositionTable> own_table_;  // unless shared
  TranspositionTable& table_;
  const LeafValues* leaves_;
  int leaf_seeds_;  // boards with at most this many seeds are looked up; -1 without leaves
  // Boards with at most this many seeds (kUntabledSeeds above the leaves) bypass the table:
  // their subtrees are a few probes, cheaper to search again than a table entry's cache miss
  // (docs/design.md §7). -1 without leaves.
  int untabled_seeds_;
  int leaf_stages_;  // the leaves' prefetch_stages()
  const StopFlag* stop_ = nullptr;
  const StopFlag* cancel_ = nullptr;
  const std::atomic<bool>* pause_ = nullptr;
  uint64_t nodes_ = 0, probes_ = 0;
  uint64_t lost_work_ = 0;     // work evicted from a shared table, not yet reported to it
  Leave left_ = Leave::kNone;  // why the last search() left the table
  std::atomic<uint64_t>* counter_ = nullptr;
  uint64_t counted_ = 0;  // nodes_ as last added to *counter_
  bool leaves_for_growth_ = true;
  Bounds bounds_;
};

}  // namespace kalah
