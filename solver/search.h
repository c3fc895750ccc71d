// search.h: exact values of boards by alpha-beta over V, with a transposition table (design §3,
// §7).
//
// V(b) is what the mover will still add to their store minus what the opponent will, under perfect
// play; it depends only on the pits, so the table is keyed by the board alone, and a table entry is
// valid on every path (play is acyclic, design §4). Bounds: -s <= V <= s with s seeds on the board.
// The table keeps a lower and an upper bound per board, which are merged, never overwritten by
// weaker ones, so a small or clashing table slows the search but never changes a result.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "solver/rules.h"

namespace kalah {

class TranspositionTable {
 public:
  struct Entry {
    Board key;
    int16_t lo, hi;  // proven bounds on V
    int8_t move;     // best pit found, -1 if none
    uint8_t work;    // log2 of the nodes spent: cheap entries are replaced first
  };

  // The table starts small and grows by rehashing up to max_bytes as it fills, so a small solve
  // touches little memory while a large one gets the whole budget.
  explicit TranspositionTable(size_t max_bytes);
  // The entry for b, or nullptr. Valid until the next store().
  const Entry* find(const Board& b) const;
  // Starts loading b's bucket into the cache, for a find() soon after.
  void prefetch(const Board& b) const { __builtin_prefetch(&bucket(b)); }
  // Records bounds for b (merged with what is known), evicting the cheaper entry of its bucket.
  void store(const Board& b, int lo, int hi, int move, uint64_t nodes);
  size_t capacity() const { return 2 * (mask_ + 1); }

 private:
  struct alignas(64) Bucket {  // one cache line: a probe costs at most one miss
    Entry e[2];
  };
  struct Unmap {
    size_t bytes;
    void operator()(Bucket* p) const;
  };
  using Buckets = std::unique_ptr<Bucket[], Unmap>;
  // Anonymous zero pages (a zero key is an empty entry), in transparent huge pages where the
  // kernel allows: the table is touched at random.
  static Buckets allocate(size_t buckets);
  Bucket& bucket(const Board& b) const { return buckets_[hash(b) & mask_]; }
  static uint64_t hash(const Board& b);
  void insert(const Entry& entry);
  void grow();

  Buckets buckets_;
  size_t mask_ = 0;
  size_t max_buckets_;
  size_t inserted_ = 0;  // new entries since the last growth
};

// Exact values of the boards with few seeds, e.g. an endgame database (db/ implements it), at the
// leaves of the search. value() must be safe to call from several threads at once.
class LeafValues {
 public:
  virtual ~LeafValues() = default;
  // Boards with at most this many seeds on the pits have a value here.
  virtual int max_seeds() const = 0;
  virtual int value(const Board& b) const = 0;
  // A hint that value(b) follows soon: an implementation may start loading it.
  virtual void prefetch(const Board& /*b*/) const {}
};

// Thrown out of a search when its stop flag is raised (e.g. by Ctrl-C).
struct SearchInterrupted : std::runtime_error {
  SearchInterrupted() : std::runtime_error("search interrupted") {}
};

// One search thread: its own table and counters. Not thread-safe; run one per thread.
class Solver {
 public:
  static constexpr size_t kDefaultTableBytes = size_t{64} << 20;

  explicit Solver(const Rules& rules, size_t table_bytes = kDefaultTableBytes,
                  const LeafValues* leaves = nullptr);

  const Rules& rules() const { return rules_; }

  // Exact V of b (MTD(f): a sequence of null-window searches).
  int value(const Board& b);
  // Fail-soft alpha-beta: a result r <= alpha proves V <= r, r >= beta proves V >= r, otherwise
  // V == r.
  int search(const Board& b, int alpha, int beta);
  // Whether playing `pit` on b is worth at least v to the mover (one null-window search).
  bool move_reaches(const Board& b, int pit, int v);

  // The bounds on V proven so far by the running or last value() call: after an interruption,
  // what is known.
  int lower_bound() const { return lower_; }
  int upper_bound() const { return upper_; }

  // Makes searches throw SearchInterrupted soon after *stop becomes true (e.g. Ctrl-C), or
  // *cancel (e.g. another thread's search made this one moot).
  void set_stop_flag(const std::atomic<bool>* stop) { stop_ = stop; }
  void set_cancel_flag(const std::atomic<bool>* cancel) { cancel_ = cancel; }

  uint64_t nodes() const { return nodes_; }
  uint64_t probes() const { return probes_; }

 private:
  Rules rules_;
  TranspositionTable table_;
  const LeafValues* leaves_;
  int leaf_seeds_;  // boards with at most this many seeds are looked up; -1 without leaves
  const std::atomic<bool>* stop_ = nullptr;
  const std::atomic<bool>* cancel_ = nullptr;
  uint64_t nodes_ = 0, probes_ = 0;
  int lower_ = 0, upper_ = 0;
};

// What `kalah solve` reports about a position.
struct MoveReport {
  int pit = 0;            // 0-based
  int value = 0;          // final margin for the mover after this move and best play
  std::vector<int> turn;  // the whole turn: this pit, then the best extra moves
};

struct Analysis {
  int board_value = 0;  // V
  int value = 0;        // final margin for the mover: stores plus V
  std::vector<MoveReport> moves;
  std::vector<std::vector<int>> best_line;  // turns to the end of the game
  bool finished = false;                    // the position is already over
};

// Exact V of any board (terminal ones included), from search or from a database.
using BoardValue = std::function<int(const Board&)>;
// Whether a move (board, pit) is worth at least v to the mover; by default from exact values.
using MoveTest = std::function<bool(const Board&, int pit, int v)>;

// The value of p, of each of its moves, and a best line: the lowest pit among equal moves.
Analysis analyse(const Rules& rules, const Position& p, const BoardValue& value,
                 const MoveTest& reaches = {});
// The same by search: best moves are found by null-window tests, cheaper than exact values.
Analysis analyse(Solver& solver, const Position& p);
// The parts of an analysis: one move's report given V of the board it leads to, and a best line.
MoveReport report_move(const Rules& rules, const Position& p, int pit, int child_value,
                       const BoardValue& value, const MoveTest& reaches = {});
std::vector<std::vector<int>> best_line(const Rules& rules, Position p, const BoardValue& value,
                                        const MoveTest& reaches = {});

// South's complete first turns from a position: every pit sequence whose moves but the last earn
// an extra turn (or the game ends), with the position each leads to.
struct Opening {
  std::vector<int> turn;
  Position after;
};
std::vector<Opening> openings(const Rules& rules, const Position& p);

// The pie rule (design §1): after the mover's first complete turn the opponent may swap sides,
// taking over that position and score. An opening worth w to the first player (final margin with
// best play, no swap) is then worth min(w, -w) to them: the opponent swaps exactly when w > 0.
struct PieOpening {
  std::vector<int> turn;
  int value = 0;  // w: final margin for the first player without a swap
  bool swapped = false;
};
struct PieAnalysis {
  int value = 0;  // the first player's margin under the pie rule: max over openings of -|w|
  int best = 0;   // index of the first opening reaching it
  std::vector<PieOpening> openings;
};
PieAnalysis pie_rule(const Rules& rules, const Position& p, const BoardValue& value);

}  // namespace kalah
