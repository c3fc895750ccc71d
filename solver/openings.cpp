// openings.cpp: enumerating first turns; the pie rule's choice among them.
#include "solver/openings.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <stdexcept>

#include "solver/heuristic.h"

namespace kalah {
namespace {

void extend(const Rules& rules, const Position& p, std::vector<int>& turn,
            std::vector<Opening>& out) {
  for (int pit = 0; pit < rules.pits; ++pit) {
    if (p.board.pits[pit] == 0) continue;
    turn.push_back(pit);
    const Position q = apply(rules, p, pit);
    if (q.mover == p.mover && !is_terminal(rules, q.board))
      extend(rules, q, turn, out);
    else
      out.push_back({turn, q});
    turn.pop_back();
  }
}

}  // namespace

std::vector<Opening> openings(const Rules& rules, const Position& p) {
  std::vector<Opening> out;
  std::vector<int> turn;
  if (!is_terminal(rules, p.board)) extend(rules, p, turn, out);
  return out;
}

PieAnalysis pie_rule(const Rules& rules, const Position& p, const BoardValue& value) {
  PieAnalysis pie;
  pie.value = INT_MIN;
  for (const Opening& o : openings(rules, p)) {
    const int margin = final_margin(o.after, value(o.after.board));
    PieOpening po;
    po.turn = o.turn;
    po.value = o.after.mover == p.mover ? margin : -margin;
    po.bounds = {po.value, po.value};
    po.swapped = po.value > 0;
    if (-std::abs(po.value) > pie.value) {
      pie.value = -std::abs(po.value);
      pie.best = static_cast<int>(pie.openings.size());
    }
    pie.openings.push_back(po);
  }
  if (pie.openings.empty()) throw std::invalid_argument("the game is already over: no opening");
  return pie;
}

namespace {

// Narrows `m` (bounds on a final margin) until it lies outside [-reach, reach] or is exact: the
// window's edges first, the one `leaning` points to (>= 0: above) before the other, then MTD(f)
// inside.
void settle_within(MarginTests& tests, Bounds& m, int reach, int leaning) {
  int guess = leaning >= 0 ? reach + 1 : -reach;
  while (!m.exact() && m.upper >= -reach && m.lower <= reach) {
    int beta;
    if (m.lower < -reach && m.upper > reach)
      beta = leaning >= 0 ? reach + 1 : -reach;
    else if (m.lower < -reach)
      beta = -reach;  // fails when the margin is below the window
    else if (m.upper > reach)
      beta = reach + 1;  // succeeds when it is above
    else                 // inside: MTD(f)
      beta = std::clamp(guess, m.lower + 1, m.upper);
    const Bounds proven = tests.test(beta);
    m.lower = std::max(m.lower, proven.lower);
    m.upper = std::min(m.upper, proven.upper);
    guess = proven.lower >= beta ? m.lower : m.upper;
  }
}

}  // namespace

PieAnalysis pie_value(const Rules& rules, const Position& p, const MarginTestsFor& tests) {
  // Enough plies to tell a lost opening from a close one, a fraction of a second each.
  HeuristicOptions estimate_options;
  estimate_options.max_depth = 8;
  estimate_options.table_bytes = size_t{1} << 20;
  const std::vector<Opening> first = openings(rules, p);
  if (first.empty()) throw std::invalid_argument("the game is already over: no opening");
  const int total = seeds(p.board) + p.mover_store + p.opponent_store;  // |w| <= total
  PieAnalysis pie;
  pie.value_only = true;
  std::vector<int> sign, estimate;  // w = sign * the margin of after's mover; estimates of w
  for (const Opening& o : first) {
    sign.push_back(o.after.mover == p.mover ? 1 : -1);
    const bool over = is_terminal(rules, o.after.board);
    const int margin = final_margin(
        o.after, over ? terminal_value(rules, o.after.board)
                      : heuristic_search(rules, o.after.board, estimate_options).value);
    estimate.push_back(sign.back() * margin);
    pie.openings.push_back({o.turn, 0,
                            over ? Bounds{estimate.back(), estimate.back()} : Bounds{-total, total},
                            false});
  }
  std::vector<int> order(first.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return std::abs(estimate[a]) < std::abs(estimate[b]); });
  // The best |w| so far, and its opening: the first found, not the first listed (proving that
  // no opening listed before it ties would be a test at the value for each of them).
  int near = total + 1, best = -1;
  for (int round = 0; best < 0; round = round ? 2 * round : 1) {
    const int r = std::min(round, total);
    for (const int k : order) {
      const int reach = best < 0 ? r : near - 1;  // |w| <= reach is better
      PieOpening& po = pie.openings[k];
      Bounds& w = po.bounds;
      if (reach < 0 || w.upper < -reach || w.lower > reach) continue;  // known to be no better
      if (!po.exact()) {
        // In the margin of after's mover, whose window is the same [-reach, reach].
        Bounds m = sign[k] > 0 ? w : Bounds{-w.upper, -w.lower};
        const int leaning = sign[k] * (w.lower > 0 ? 1 : w.upper < 0 ? -1 : estimate[k]);
        settle_within(*tests(first[k].after), m, reach, leaning);
        w = sign[k] > 0 ? m : Bounds{-m.upper, -m.lower};
      }
      if (po.exact() && std::abs(w.lower) <= reach) {
        near = std::abs(w.lower);
        best = k;
      }
    }
  }
  for (PieOpening& po : pie.openings) {
    if (po.exact()) po.value = po.bounds.lower;
    po.swapped = po.bounds.lower > 0;
  }
  pie.value = -near;
  pie.best = best;
  return pie;
}

}  // namespace kalah
