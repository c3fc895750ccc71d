// solver.cpp: the alpha-beta node: move generation, ordering, recursion, table bookkeeping.
#include "solver/solver.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "solver/mtdf.h"

namespace kalah {

// A node's best result so far within its window.
struct Solver::Node {
  int alpha, beta;
  int best, best_pit = -1;

  void record(int v, int pit) {
    if (v > best) {
      best = v;
      best_pit = pit;
      alpha = std::max(alpha, v);
    }
  }
  bool cut() const { return alpha >= beta; }
};

// The moves of a node and the boards they lead to, each board's kind and, for a leaf, where the
// leaves hold it (found once, when prefetched); order[] lists those left to search.
struct Solver::Children {
  enum Kind : uint8_t { kFinished, kLeaf, kUntabled, kTabled };
  MoveResult result[kMaxPits];
  int pit[kMaxPits];
  Kind kind[kMaxPits];
  uint64_t leaf_at[kMaxPits];
  int count = 0;
  int order[kMaxPits];
};

Solver::Solver(const Rules& rules, size_t table_bytes, const LeafValues* leaves)
    : rules_(rules),
      own_table_(std::make_unique<TranspositionTable>(table_bytes)),
      table_(*own_table_),
      leaves_(leaves),
      leaf_seeds_(leaves ? leaves->max_seeds() : -1),
      untabled_seeds_(leaves ? leaf_seeds_ + kUntabledSeeds : -1),
      leaf_stages_(leaves ? leaves->prefetch_stages() : 0) {
  validate(rules);
}

Solver::Solver(const Rules& rules, TranspositionTable& table, const LeafValues* leaves)
    : rules_(rules),
      table_(table),
      leaves_(leaves),
      leaf_seeds_(leaves ? leaves->max_seeds() : -1),
      untabled_seeds_(leaves ? leaf_seeds_ + kUntabledSeeds : -1),
      leaf_stages_(leaves ? leaves->prefetch_stages() : 0) {
  validate(rules);
}

bool Solver::must_leave() {
  if (counter_) {
    counter_->fetch_add(nodes_ - counted_, std::memory_order_relaxed);
    counted_ = nodes_;
  }
  for (const StopFlag* flag : {stop_, cancel_})
    if (flag && flag->raised()) throw SearchInterrupted(flag->reason());  // it ends the search
  if (pause_ && pause_->load(std::memory_order_relaxed)) {
    left_ = Leave::kPause;
    return true;
  }
  if (!table_.shared()) return false;
  // A shared table grows only with every thread out of it: its searches return, to run again.
  table_.add_lost_work(std::exchange(lost_work_, 0));
  if (leaves_for_growth_ && table_.growth_wanted()) {
    left_ = Leave::kGrow;
    return true;
  }
  return false;
}

void Solver::check_stayed(const char* call) const {
  if (left_ != Leave::kNone)
    throw std::logic_error(std::string(call) +
                           ": a solver that leaves its table for a pause or growth searches "
                           "with search() alone");
}

void Solver::generate(const Board& b, int on_board, Children& children) const {
  const int m = rules_.pits;
  for (int pit = 0; pit < m; ++pit) {
    if (b.pits[pit] == 0) continue;
    const int i = children.count++;
    const MoveResult& r = children.result[i] = play(rules_, b, pit);
    const Board& c = r.board;
    children.pit[i] = pit;
    const int s = on_board - r.gain;  // the store's gain left the board
    if (is_terminal(rules_, c)) {
      children.kind[i] = Children::kFinished;
    } else if (s <= leaf_seeds_) {
      children.kind[i] = Children::kLeaf;
      children.leaf_at[i] = leaves_->prefetch(c);
    } else if (s <= untabled_seeds_) {
      children.kind[i] = Children::kUntabled;
    } else {
      children.kind[i] = Children::kTabled;
      table_.prefetch(c);
    }
  }
  for (int stage = 1; stage <= leaf_stages_; ++stage)
    for (int i = 0; i < children.count; ++i)
      if (children.kind[i] == Children::kLeaf)
        leaves_->prefetch_again(on_board - children.result[i].gain, children.leaf_at[i], stage);
}

// How many of the mover's pits q hold m - q seeds (moves that end in the store), in one word:
// byte q of the row compared with byte q of kExtraTurnSeeds[m], the zero bytes of the difference
// counted (a loop over the pits was a quarter of the ordering's instructions).
constexpr auto kExtraTurnSeeds = [] {
  std::array<uint64_t, kMaxPits + 1> rows{};
  for (int m = 1; m <= kMaxPits; ++m)
    for (int q = 0; q < m; ++q) rows[m] |= uint64_t(m - q) << (8 * q);
  return rows;
}();
static int extra_turns(const Board& b, int m) {
  uint64_t row;
  std::memcpy(&row, b.pits.data(), sizeof row);
  const uint64_t differ = row ^ kExtraTurnSeeds[m];
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;
  uint64_t zero = ~(((differ & kLow7) + kLow7) | differ | kLow7);  // a byte's top bit: it is 0
  if (m < 8) zero &= (uint64_t{1} << (8 * m)) - 1;
  return static_cast<int>(((zero >> 7) * 0x0101010101010101ull) >> 56);  // no popcnt in x86-64
}

// Ordering key of a move to search, highest first: the table's move, extra turns (nearest the
// store first, as playing those leaves the other extra turns intact), then the other moves by
// seeds gained, less half a seed for each extra turn the move leaves the opponent, nearest the
// store first among equals. Each term earned its place in nodes searched (docs/design.md §7).
static int order_key(const MoveResult& r, int pit, int table_move, int m) {
  if (pit == table_move) return 1 << 20;
  if (r.extra_turn) return (1 << 16) + pit;
  return (2 * r.gain - extra_turns(r.board, m)) * 16 + pit;
}

int Solver::order(Children& children, int table_move, Node& node) {
  // Children that are finished or in the leaf table have exact values at once: take them first.
  // Every child's table bucket or leaf value was prefetched: the lookups overlap in memory.
  bool open[kMaxPits] = {};
  for (int i = 0; i < children.count && !node.cut(); ++i) {
    const MoveResult& r = children.result[i];
    if (children.kind[i] == Children::kFinished) {
      node.record(move_value(r, terminal_value(rules_, r.board)), children.pit[i]);
    } else if (children.kind[i] == Children::kLeaf) {
      ++probes_;
      node.record(move_value(r, leaves_->value_at(r.board, children.leaf_at[i])), children.pit[i]);
    } else {
      open[i] = true;
    }
  }
  // The others are bounded by what the table knows of them (enhanced transposition cut-off: one
  // may already refute this node), then sorted by order_key.
  int key[kMaxPits], count = 0;
  for (int i = 0; i < children.count && !node.cut(); ++i) {
    if (!open[i]) continue;
    const MoveResult& r = children.result[i];
    const int pit = children.pit[i];
    if (TranspositionTable::Entry e;
        children.kind[i] == Children::kTabled && table_.find(r.board, e)) {
      const Bounds known = move_bounds(r, {e.lo, e.hi});
      if (known.lower >= node.beta) {
        node.record(known.lower, pit);
        break;
      }
      if (known.upper <= node.alpha) {  // cannot raise this node: its bound is all we need
        node.record(known.upper, pit);
        continue;
      }
    }
    const int k = order_key(r, pit, table_move, rules_.pits);
    int j = count++;
    for (; j > 0 && key[j - 1] < k; --j) {
      children.order[j] = children.order[j - 1];
      key[j] = key[j - 1];
    }
    children.order[j] = i;
    key[j] = k;
  }
  return count;
}

int Solver::search(const Board& b, int alpha, int beta) {
  left_ = Leave::kNone;
  if (is_terminal(rules_, b)) {
    ++nodes_;
    return terminal_value(rules_, b);
  }
  const int s = seeds(b);
  if (s <= leaf_seeds_) {
    ++nodes_;
    ++probes_;
    return leaves_->value(b);
  }
  return search(b, s, alpha, beta);
}

int Solver::search(const Board& b, int s, int alpha, int beta) {
  // Leaving the table: every search up the stack returns at once, storing nothing.
  if ((++nodes_ & (kInterruptInterval - 1)) == 0 && must_leave()) return 0;
  if (alpha >= s) return s;
  if (beta <= -s) return -s;

  // The table narrows the window to what it has proven; a result outside the narrowed window
  // but inside the caller's is still exact, since the narrowing bounds were true bounds.
  const int alpha0 = alpha, beta0 = beta;
  int table_move = -1;
  const bool tabled = s > untabled_seeds_;  // just above the leaves: no table (solver.h)
  if (TranspositionTable::Entry e; tabled && table_.find(b, e)) {
    if (e.lo >= beta || e.lo == e.hi) return e.lo;
    if (e.hi <= alpha) return e.hi;
    alpha = std::max<int>(alpha, e.lo);
    beta = std::min<int>(beta, e.hi);
    table_move = e.move;
  }
  const uint64_t nodes_before = nodes_;
  Node node{alpha, beta, -s - 1};
  Children children;
  generate(b, s, children);
  const int count = order(children, table_move, node);
  const auto search_child = [&](int i) {
    const int c = children.order[i];
    const MoveResult& r = children.result[c];
    const Window w = child_window(r, node.alpha, node.beta);
    const int v = search(r.board, s - r.gain, w.alpha, w.beta);
    if (left_ == Leave::kNone) node.record(move_value(r, v), children.pit[c]);
  };
  const auto go_on = [&] { return !node.cut() && left_ == Leave::kNone; };
  if (!table_.shared() || !tabled) {
    for (int i = 0; i < count && go_on(); ++i) search_child(i);
  } else {
    // ABDADA: children another thread is searching are taken last, the first one too. Classic
    // ABDADA searches the first child at once, so threads walk the same leftmost path; in null-
    // window searches (MTD(f) makes every search one) a later sibling's window does not depend
    // on the first child's result, so deferring it costs nothing but the work of a cut-off that
    // one would have found (docs/design.md §7).
    lost_work_ += table_.enter(b);
    const struct Leave {  // also when a search is stopped or leaves the table
      TranspositionTable& table;
      const Board& b;
      ~Leave() { table.leave(b); }
    } leave{table_, b};
    int deferred[kMaxPits], later = 0;
    for (int i = 0; i < count && go_on(); ++i) {
      const int c = children.order[i];
      if (children.kind[c] == Children::kTabled && table_.busy(children.result[c].board))
        deferred[later++] = i;
      else
        search_child(i);
    }
    for (int k = 0; k < later && go_on(); ++k) search_child(deferred[k]);
  }
  if (left_ != Leave::kNone) return 0;

  const int best = node.best;
  const int lo = best >= beta0 ? best : best > alpha0 ? best : -s;
  const int hi = best <= alpha0 ? best : best < beta0 ? best : s;
  if (tabled) lost_work_ += table_.store(b, lo, hi, node.best_pit, nodes_ - nodes_before);
  return best;
}

int Solver::value(const Board& b) {
  if (is_terminal(rules_, b)) {
    bounds_.lower = bounds_.upper = terminal_value(rules_, b);
    return bounds_.lower;
  }
  const int s = seeds(b);
  if (s <= leaf_seeds_) {
    ++probes_;
    bounds_.lower = bounds_.upper = leaves_->value(b);
    return bounds_.lower;
  }
  bounds_ = {-s, s};
  int guess = 0;
  if (TranspositionTable::Entry e; table_.find(b, e)) {
    bounds_.lower = std::max<int>(bounds_.lower, e.lo);
    bounds_.upper = std::min<int>(bounds_.upper, e.hi);
    guess = std::clamp(guess, bounds_.lower, bounds_.upper);
  }
  mtdf(
      bounds_, guess,
      [&](int beta) {
        const int r = search(b, beta - 1, beta);
        check_stayed("value()");
        return r >= beta ? Bounds{r, s} : Bounds{-s, r};
      },
      [](const Bounds&) { return true; });
  return bounds_.lower;
}

bool Solver::move_reaches(const Board& b, int pit, int v) {
  const MoveResult r = play(rules_, b, pit);
  const Window w = child_window(r, v - 1, v);
  const int value = search(r.board, w.alpha, w.beta);
  check_stayed("move_reaches()");
  return move_value(r, value) >= v;
}

int Solver::proving_move(const Board& b, int v) {
  const int s = seeds(b);
  int table_move = -1;
  if (TranspositionTable::Entry e; s > untabled_seeds_ && table_.find(b, e)) table_move = e.move;
  Node node{v - 1, v, -s - 1};
  Children children;
  generate(b, s, children);
  const int count = order(children, table_move, node);
  if (node.cut()) return node.best_pit;  // a child known at once, or proven by the table
  for (int i = 0; i < count; ++i) {
    const int pit = children.pit[children.order[i]];
    if (move_reaches(b, pit, v)) return pit;
  }
  return -1;
}

}  // namespace kalah
