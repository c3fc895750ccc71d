// analysis.h: what `kalah solve` and `kalah query` report about a position: its value, every
// move's value with its whole turn, and a best line to the end of the game (docs/design.md §7).
//
// The analysis is written once over two callbacks, so that the same code serves values from a
// search (Solver), from a database, or from both.
#pragma once

#include <functional>
#include <vector>

#include "game/rules.h"
#include "solver/solver.h"

namespace kalah {

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
// A Solver's exact values and move tests, as the callbacks above.
BoardValue values_of(Solver& solver);
MoveTest move_tests_of(Solver& solver);

}  // namespace kalah
