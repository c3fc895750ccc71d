// heuristic.cpp: iterative deepening alpha-beta over the stores' gains.
#include "solver/heuristic.h"

#include <algorithm>

#include "solver/any_board.h"
#include "solver/value.h"

namespace kalah {
namespace {

struct Stopped {};

// B is Board or AnyBoard: the same search over either.
template <class B>
class Deepening {
 public:
  Deepening(const Rules& rules, const StopFlag* stop) : rules_(rules), stop_(stop) {}

  // Fail-soft negamax to `depth` plies; `first` is tried first at this node (the root's).
  int search(const B& b, int depth, int alpha, int beta, int first = -1, int* best = nullptr) {
    // Every node: on a board of any size one can cost as much as thousands of Board nodes.
    ++nodes_;
    if (stopping_ && stop_ && stop_->raised()) throw Stopped{};
    if (is_terminal(rules_, b)) return terminal_value(rules_, b);
    if (depth == 0) {
      cut_ = true;
      return 0;
    }
    int result = -kInfinity;
    for (int k = -1; k < rules_.pits; ++k) {
      const int pit = k < 0 ? first : k;
      if (pit < 0 || (k >= 0 && pit == first) || b.pits[pit] == 0) continue;
      const auto r = play(rules_, b, pit);
      const int a = std::max(alpha, result);
      const int v =
          move_value(r.extra_turn, r.gain,
                     r.extra_turn ? search(r.board, depth - 1, a - r.gain, beta - r.gain)
                                  : search(r.board, depth - 1, r.gain - beta, r.gain - a));
      if (v > result) {
        result = v;
        if (best) *best = pit;
        if (v >= beta) break;
      }
    }
    return result;
  }

  HeuristicMove run(const B& b, int max_depth, const HeuristicProgress& progress) {
    HeuristicMove out;
    try {
      for (int depth = 1; depth <= max_depth; ++depth) {
        cut_ = false;
        int pit = out.pit;
        const int v = search(b, depth, -kInfinity, kInfinity, out.pit, &pit);
        out = {pit, depth, v, !cut_, nodes_};
        stopping_ = true;  // the first iteration always finishes
        if (progress) progress(out);
        if (out.exact) break;
      }
    } catch (const Stopped&) {
    }
    out.nodes = nodes_;
    return out;
  }

 private:
  static constexpr int kInfinity = 1 << 20;
  const Rules& rules_;
  const StopFlag* stop_;
  uint64_t nodes_ = 0;
  bool cut_ = false;       // the iteration met its ply limit somewhere
  bool stopping_ = false;  // checks `stop`
};

template <class B>
HeuristicMove deepen(const Rules& rules, const B& b, const StopFlag* stop, int max_depth,
                     const HeuristicProgress& progress) {
  if (is_terminal(rules, b)) return {-1, 0, terminal_value(rules, b), true, 0};
  return Deepening<B>(rules, stop).run(b, max_depth, progress);
}

}  // namespace

HeuristicMove heuristic_move(const Rules& rules, const Board& b, const StopFlag* stop,
                             int max_depth, const HeuristicProgress& progress) {
  return deepen(rules, b, stop, max_depth, progress);
}

HeuristicMove heuristic_move(const Rules& rules, const AnyBoard& b, const StopFlag* stop,
                             int max_depth, const HeuristicProgress& progress) {
  Rules sized = rules;
  sized.pits = b.m();
  return deepen(sized, b, stop, max_depth, progress);
}

}  // namespace kalah
