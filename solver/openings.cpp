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
    po.lower = po.upper = po.value;
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

PieAnalysis pie_value(const Rules& rules, const Position& p, const MarginSearch& search) {
  // Enough plies to tell a lost opening from a close one, a fraction of a second each.
  constexpr int kEstimateDepth = 8;
  const std::vector<Opening> first = openings(rules, p);
  if (first.empty()) throw std::invalid_argument("the game is already over: no opening");
  const int total = seeds(p.board) + p.mover_store + p.opponent_store;  // |w| <= total
  PieAnalysis pie;
  std::vector<int> estimate;  // w's, from the first player's side
  for (const Opening& o : first) {
    const int sign = o.after.mover == p.mover ? 1 : -1;
    int margin = final_margin(o.after, 0);
    if (is_terminal(rules, o.after.board))
      margin += terminal_value(rules, o.after.board);
    else
      margin += heuristic_move(rules, o.after.board, nullptr, kEstimateDepth).estimate;
    estimate.push_back(sign * margin);
    pie.openings.push_back({o.turn, 0, -total, total, false});
  }
  std::vector<int> order(first.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return std::abs(estimate[a]) < std::abs(estimate[b]);
  });
  int near = total + 1, best = -1;  // the best |w| so far, and its opening
  for (const int k : order) {
    const int reach = best < 0 ? total : k < best ? near : near - 1;  // |w| <= reach is better
    if (reach < 0) continue;  // nothing beats a draw found earlier in the list
    const int sign = first[k].after.mover == p.mover ? 1 : -1;
    // From the side the estimate leans to: "above the window?" first when w looks like a win
    // for the mover of `after`, else "below it?"; the first opening from the estimate itself.
    const int leaning = sign * estimate[k];
    const int guess = best < 0 ? leaning : leaning >= 0 ? reach + 1 : -reach;
    const Bounds m = search(first[k].after, {-reach, reach}, guess);
    PieOpening& po = pie.openings[k];
    po.lower = sign > 0 ? m.lower : -m.upper;
    po.upper = sign > 0 ? m.upper : -m.lower;
    po.swapped = po.lower > 0;
    if (!po.exact()) continue;
    po.value = po.lower;
    if (std::abs(po.value) <= reach) {
      near = std::abs(po.value);
      best = k;
    }
  }
  pie.value = -near;
  pie.best = best;
  pie.value_only = true;
  return pie;
}

}  // namespace kalah
