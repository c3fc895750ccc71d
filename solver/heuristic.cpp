// heuristic.cpp: iterative deepening alpha-beta over the stores' gains, with a table.
#include "solver/heuristic.h"

#include <algorithm>
#include <array>
#include <type_traits>

#include "game/any_board.h"
#include "solver/heuristic_table.h"

namespace kalah {
namespace {

using namespace heuristic_table;  // NOLINT(google-build-using-namespace): its own table
constexpr int kInfinity = 1 << 20;

// A child of a node, with what orders it among its siblings.
template <class B>
struct Child {
  B board;
  int gain = 0;
  bool extra_turn = false;
  int pit = 0;
  int order = 0;
};
// A node's children: on the stack for Board, sized to the row for AnyBoard.
template <class B>
struct Children {
  std::array<Child<B>, kMaxPits> kids;
  explicit Children(int) {}
  Child<B>& operator[](int i) { return kids[i]; }
};
template <>
struct Children<AnyBoard> {
  std::vector<Child<AnyBoard>> kids;
  explicit Children(int m) : kids(m) {}
  Child<AnyBoard>& operator[](int i) { return kids[i]; }
};

std::pair<int, int> rows(const Rules& rules, const Board& b) {
  return {mover_seeds(b, rules.pits), opponent_seeds(b, rules.pits)};
}
std::pair<int, int> rows(const Rules&, const AnyBoard& b) {
  return row_seeds(b);
}

// B is Board or AnyBoard: the same search over either.
template <class B>
class Deepening {
 public:
  Deepening(const Rules& rules, const HeuristicOptions& options)
      : rules_(rules),
        options_(options),
        table_(options.table_bytes),
        plies_(static_cast<size_t>(options.max_depth + 2)),
        root_plies_(static_cast<size_t>(rules.pits)) {}

  Estimate run(const B& b, const EstimateProgress& progress) {
    Estimate out;
    try {
      for (int depth = 1; depth <= options_.max_depth; ++depth) {
        root_depth_ = depth;
        Estimate e = iterate(b, depth, out);
        add_lines(b, e);
        out = std::move(e);
        stopping_ = true;  // the first iteration always finishes
        if (progress) progress(out);
        if (out.exact) break;
      }
    } catch (const SearchInterrupted&) {  // stopped: the last whole iteration's estimate stands
    }
    out.nodes = nodes_;
    return out;
  }

 private:
  // The children of b, best first: the table's move, extra turns (nearest the store first, so
  // that the others stay playable), then by gain (captures).
  int children(const B& b, int first, Children<B>& out) const {
    int n = 0;
    for (int pit = rules_.pits - 1; pit >= 0; --pit) {
      if (b.pits[pit] == 0) continue;
      const auto r = play(rules_, b, pit);
      Child<B>& c = out[n++];
      c = {r.board, r.gain, r.extra_turn, pit, 0};
      c.order = pit == first ? 1 << 20 : r.extra_turn ? (1 << 16) + pit : 64 * r.gain + pit;
      for (int i = n - 1; i > 0 && out[i].order > out[i - 1].order; --i)
        std::swap(out[i], out[i - 1]);
    }
    return n;
  }

  // The move's value, searched with the window (alpha, beta) on it.
  int child_value(const Child<B>& c, int depth, int alpha, int beta, bool& solved) {
    if (c.extra_turn) return c.gain + search(c.board, depth, alpha - c.gain, beta - c.gain, solved);
    return c.gain - search(c.board, depth, c.gain - beta, c.gain - alpha, solved);
  }

  // Fail-soft negamax with null windows after the first move; `solved`: the value is a proven
  // bound (exact inside the window). A node searched with an open window (on the line) takes no
  // cut from the table but a solved entry's, so that its line is the one its value was searched
  // along: a cut from a deeper entry would graft another line's value onto a shorter one.
  int search(const B& b, int depth, int alpha, int beta, bool& solved) {
    ++nodes_;
    if (stopping_ && options_.stop && options_.stop->raised())
      throw SearchInterrupted(options_.stop->reason());
    const int ply = root_depth_ - depth;
    plies_[ply].clear();
    const bool open_window = beta - alpha > 1;
    const auto [mover, opponent] = rows(rules_, b);
    solved = true;
    if (is_terminal(rules_, mover, opponent)) return terminal_value(rules_, mover, opponent);
    if constexpr (std::is_same_v<B, Board>)
      if (options_.leaves && mover + opponent <= options_.leaves->max_seeds())
        return options_.leaves->value(b);
    const Key key = key_of(b);
    int first = -1;
    if (const Entry* e = table_.find(key)) {
      first = e->best;
      if (e->depth >= depth && (!open_window || e->depth == kSolved)) {
        solved = e->depth == kSolved;
        if (e->bound == kExact) return e->value;
        if (e->bound == kLower) alpha = std::max(alpha, static_cast<int>(e->value));
        if (e->bound == kUpper) beta = std::min(beta, static_cast<int>(e->value));
        if (alpha >= beta) return e->value;
      }
    }
    if (depth == 0) {
      solved = false;
      return 0;  // the rest unknown (a weight on each row's seeds did no better: experiments.md)
    }
    Children<B> kids(rules_.pits);
    const int n = children(b, first, kids);
    const int alpha0 = alpha;
    int best = -kInfinity, best_pit = -1;
    bool all_solved = true;
    for (int i = 0; i < n; ++i) {
      bool s = false;
      int v;
      if (i == 0) {
        v = child_value(kids[i], depth - 1, alpha, beta, s);
      } else {
        v = child_value(kids[i], depth - 1, alpha, alpha + 1, s);
        // The null window proved at least v: a window open at v - 1 holds a value of exactly v
        // and so searches its line (one open at v would fail low there, with no line).
        if (v > alpha && v < beta) v = child_value(kids[i], depth - 1, v - 1, beta, s);
      }
      all_solved = all_solved && s;
      if (v > best) {
        best = v;
        best_pit = kids[i].pit;
        if (v > alpha && v < beta) follow(plies_[ply], kids[i].pit, ply + 1);
        alpha = std::max(alpha, v);
        if (v >= beta) break;
      }
    }
    const Bound bound = best <= alpha0 ? kUpper : best >= beta ? kLower : kExact;
    table_.store(key, best, all_solved ? kSolved : static_cast<uint8_t>(depth), bound, best_pit);
    solved = all_solved;
    return best;
  }

  // A principal variation: `pit`, then the one the child at `ply` was valued along.
  void follow(std::vector<int>& pits, int pit, int ply) const {
    pits.assign(1, pit);
    pits.insert(pits.end(), plies_[ply].begin(), plies_[ply].end());
  }

  // A move's line: the principal variation its value was searched along, then, where that
  // stopped at a solved entry, the table's best moves while it has them, up to the iteration's
  // depth, a finished game or the database (which has no moves to give).
  Line line_of(const B& b, const std::vector<int>& pits, int plies) const {
    Line line{{pits[0]}};
    auto r = play(rules_, b, pits[0]);
    for (int ply = 1; ply < plies; ++ply) {
      const auto [mover, opponent] = rows(rules_, r.board);
      if (is_terminal(rules_, mover, opponent)) break;
      if constexpr (std::is_same_v<B, Board>)
        if (options_.leaves && mover + opponent <= options_.leaves->max_seeds()) break;
      int pit = -1;
      if (static_cast<size_t>(ply) < pits.size()) {
        pit = pits[ply];
      } else if (const Entry* e = table_.find(key_of(r.board))) {
        pit = e->best;
      }
      if (pit < 0 || r.board.pits[pit] == 0) break;
      if (r.extra_turn)
        line.back().push_back(pit);
      else
        line.push_back({pit});
      r = play(rules_, r.board, pit);
    }
    return line;
  }
  void add_lines(const B& b, Estimate& e) const {
    for (MoveEstimate& m : e.moves) m.line = line_of(b, root_plies_[m.pit], e.depth);
    if (e.pit >= 0) e.line = line_of(b, root_plies_[e.pit], e.depth);
  }

  // A move's value kept within what is proven of it.
  int within_proven(int pit, int v) const {
    for (const auto& [p, bounds] : options_.proven)
      if (p == pit) return std::clamp(v, bounds.lower, bounds.upper);
    return v;
  }

  // One iteration at the root: every move with a full window (every_move), or the best with
  // null windows after the last iteration's choice, in an aspiration window around its value.
  Estimate iterate(const B& b, int depth, const Estimate& last) {
    Children<B> kids(rules_.pits);
    const int n = children(b, last.pit, kids);
    Estimate e;
    e.depth = depth;
    bool all_solved = true;
    int alpha = -kInfinity, beta = kInfinity;
    if (!options_.every_move && last.depth > 0) alpha = last.value - 2, beta = last.value + 2;
    for (;;) {
      e.moves.clear();
      int best = -kInfinity, a = alpha;
      all_solved = true;
      for (int i = 0; i < n; ++i) {
        bool s = false;
        int v;
        if (options_.every_move || i == 0) {
          v = child_value(kids[i], depth - 1, options_.every_move ? -kInfinity : a, beta, s);
        } else {
          v = child_value(kids[i], depth - 1, a, a + 1, s);
          if (v > a && v < beta) v = child_value(kids[i], depth - 1, v - 1, beta, s);
        }
        // A value inside its window was searched along a line; a bound has the table's.
        if (options_.every_move || (v > a && v < beta))
          follow(root_plies_[kids[i].pit], kids[i].pit, 1);
        else
          root_plies_[kids[i].pit].assign(1, kids[i].pit);
        v = within_proven(kids[i].pit, v);
        all_solved = all_solved && s;
        e.moves.push_back({kids[i].pit, v, s && options_.every_move, {}});
        // Equal values tie to the lower pit only when both are values, not bounds.
        if (v > best || (options_.every_move && v == best && kids[i].pit < e.pit)) {
          best = v;
          e.pit = kids[i].pit;
        }
        a = std::max(a, v);
        if (!options_.every_move && v >= beta) break;
      }
      e.value = best;
      if (best > alpha && best < beta) break;  // inside the window: the value, not a bound
      alpha = -kInfinity, beta = kInfinity;    // the aspiration missed
    }
    e.exact = all_solved;
    if (!options_.every_move) e.moves.clear();  // bounds of the null windows, not values
    std::sort(e.moves.begin(), e.moves.end(),
              [](const MoveEstimate& x, const MoveEstimate& y) { return x.pit < y.pit; });
    return e;
  }

  const Rules& rules_;
  const HeuristicOptions& options_;
  Table table_;
  // plies_[ply]: the line (principal variation) below the node being searched at that ply, a pit
  // a ply (a triangular table); root_plies_[pit]: the root move's, from its last search.
  std::vector<std::vector<int>> plies_, root_plies_;  // int: AnyBoard rows pass 127 pits
  int root_depth_ = 0;
  uint64_t nodes_ = 0;
  bool stopping_ = false;  // checks the stop flag
};

template <class B>
Estimate deepen(const Rules& rules, const B& b, const HeuristicOptions& options,
                const EstimateProgress& progress) {
  if (is_terminal(rules, b)) {
    Estimate e;
    e.value = terminal_value(rules, b);
    e.exact = true;
    return e;
  }
  return Deepening<B>(rules, options).run(b, progress);
}

}  // namespace

Estimate heuristic_search(const Rules& rules, const Board& b, const HeuristicOptions& options,
                          const EstimateProgress& progress) {
  return deepen(rules, b, options, progress);
}

Estimate heuristic_search(const Rules& rules, const AnyBoard& b, const HeuristicOptions& options,
                          const EstimateProgress& progress) {
  Rules sized = rules;
  sized.pits = b.m();
  HeuristicOptions plain = options;
  plain.leaves = nullptr;
  return deepen(sized, b, plain, progress);
}

}  // namespace kalah
