// openings.cpp: enumerating first turns; the pie rule's choice among them.
#include "solver/openings.h"

#include <climits>
#include <cstdlib>
#include <stdexcept>

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

}  // namespace kalah
