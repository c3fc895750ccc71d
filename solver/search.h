// search.h: exact values of boards by alpha-beta over V, with a transposition table (design §3,
// §7).
//
// V(b) is what the mover will still add to their store minus what the opponent will, under perfect
// play; it depends only on the pits, so the table is keyed by the board alone, and a table entry is
// valid on every path (play is acyclic, design §4). Bounds: -s <= V <= s with s seeds on the board.
// The table keeps a lower and an upper bound per board, which are merged, never overwritten by
// weaker ones, so a small or clashing table slows the search but never changes a result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
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
  // Records bounds for b (merged with what is known), evicting the cheaper entry of its bucket.
  void store(const Board& b, int lo, int hi, int move, uint64_t nodes);
  void clear();
  size_t capacity() const { return 2 * (mask_ + 1); }

 private:
  struct Bucket {
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

class Solver {
 public:
  static constexpr size_t kDefaultTableBytes = size_t{64} << 20;

  explicit Solver(const Rules& rules, size_t table_bytes = kDefaultTableBytes);

  const Rules& rules() const { return rules_; }

  // Exact V of b (MTD(f): a sequence of null-window searches).
  int value(const Board& b);
  // Fail-soft alpha-beta: a result r <= alpha proves V <= r, r >= beta proves V >= r, otherwise
  // V == r.
  int search(const Board& b, int alpha, int beta);

  uint64_t nodes() const { return nodes_; }
  void clear_table() { table_.clear(); }

 private:
  Rules rules_;
  TranspositionTable table_;
  uint64_t nodes_ = 0;
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

// The value of p, of each of its moves, and a best line: the lowest pit among equal moves.
Analysis analyse(const Rules& rules, const Position& p, const BoardValue& value);
Analysis analyse(Solver& solver, const Position& p);

}  // namespace kalah
