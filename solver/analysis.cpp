// analysis.cpp: move reports and best lines over value callbacks.
#include "solver/analysis.h"

#include <stdexcept>

namespace kalah {
namespace {

// The lowest pit whose move reaches V(b); b is not terminal.
int best_move(const Rules& rules, const Board& b, const BoardValue& value,
              const MoveTest& reaches) {
  const int v = value(b);
  for (int pit = 0; pit < rules.pits; ++pit) {
    if (b.pits[pit] == 0) continue;
    if (reaches) {
      if (reaches(b, pit, v)) return pit;
    } else {
      const MoveResult r = play(rules, b, pit);
      if (move_value(r, value(r.board)) >= v) return pit;
    }
  }
  throw std::logic_error("no move reaches the board's value: inconsistent values");
}

}  // namespace

BoardValue values_of(Solver& solver) {
  return [&solver](const Board& b) { return solver.value(b); };
}

MoveTest move_tests_of(Solver& solver) {
  return [&solver](const Board& b, int pit, int v) { return solver.move_reaches(b, pit, v); };
}

MoveReport report_move(const Rules& rules, const Position& p, int pit, int child_value,
                       const BoardValue& value, const MoveTest& reaches) {
  MoveReport mr;
  mr.pit = pit;
  MoveResult r = play(rules, p.board, pit);
  mr.value = final_margin(p, move_value(r, child_value));
  mr.turn.push_back(pit);
  // An extra turn continues with the best moves until the turn passes or the game ends.
  for (Board b = r.board; r.extra_turn && !is_terminal(rules, b); b = r.board) {
    const int next = best_move(rules, b, value, reaches);
    mr.turn.push_back(next);
    r = play(rules, b, next);
  }
  return mr;
}

std::vector<std::vector<int>> best_line(const Rules& rules, Position q, const BoardValue& value,
                                        const MoveTest& reaches) {
  std::vector<std::vector<int>> line;
  while (!is_terminal(rules, q.board)) {
    std::vector<int> turn;
    const Side mover = q.mover;
    while (q.mover == mover && !is_terminal(rules, q.board)) {
      const int pit = best_move(rules, q.board, value, reaches);
      turn.push_back(pit);
      q = apply(rules, q, pit);
    }
    line.push_back(turn);
  }
  return line;
}

Analysis analyse(const Rules& rules, const Position& p, const BoardValue& value,
                 const MoveTest& reaches) {
  Analysis a;
  a.board_value = value(p.board);
  a.value = final_margin(p, a.board_value);
  a.finished = is_terminal(rules, p.board);
  if (a.finished) return a;
  for (int pit = 0; pit < rules.pits; ++pit)
    if (p.board.pits[pit] > 0)
      a.moves.push_back(
          report_move(rules, p, pit, value(play(rules, p.board, pit).board), value, reaches));
  a.best_line = best_line(rules, p, value, reaches);
  return a;
}

Analysis analyse(Solver& solver, const Position& p) {
  return analyse(solver.rules(), p, values_of(solver), move_tests_of(solver));
}

}  // namespace kalah
