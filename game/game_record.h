// game_record.h: a game as text, the best line's notation "S:3-6 N:2-1" (docs/design.md §2).
//
// A turn is the side that plays it and its pits, 1-based, dash-separated; a pit but the last of a
// turn earns an extra turn. `solve --moves`, `query --moves`, `kalah play` and the board's URL
// all read and write this one form; the start position and the rules travel beside it, as the
// command line's own options (--pits, --seeds or a position, rule flags).
#pragma once

#include <string>
#include <vector>

#include "game/rules.h"

namespace kalah {

// Longer text is refused before it is read: a game of the biggest board is a few thousand plies.
inline constexpr size_t kMaxRecordLength = 100000;

struct Turn {
  Side side = Side::kSouth;
  std::vector<int> pits;  // 0-based
};

// Reads turns separated by spaces (or '+', as a URL writes them), e.g. "S:3-6 N:2-1". Checks the
// syntax only; replay() checks that the moves can be played. An empty text is no turns.
std::vector<Turn> parse_record(const std::string& text, int m);

std::string format_record(const std::vector<Turn>& turns);

// Why a turn's pit cannot be played: the game is over before it, it is empty, or the pit before
// it ended the turn (gave no extra turn, or finished the game).
enum class TurnFault { kNone, kOver, kEmpty, kEnded };
struct TurnPlayed {
  Position position;                   // after the pits that could be played
  size_t at = 0;                       // the pit (an index into the turn) that could not be
  TurnFault fault = TurnFault::kNone;  // kNone: the whole turn was played
};
// Plays a turn's pits (0-based) from p as far as they can be played: the checks replay() and
// `kalah play` share. The side is p's mover.
TurnPlayed play_turn(const Rules& rules, Position p, const std::vector<int>& pits);

// Plays the record from `start`. Each pit must be non-empty and belong to the side to move, and
// the game must not be over before it: otherwise std::invalid_argument naming the turn and pit.
Position replay(const Rules& rules, Position start, const std::vector<Turn>& turns);

// Appends one played pit to a record: a new turn when the side changes, else the same turn.
void record_ply(std::vector<Turn>& turns, Side side, int pit);

}  // namespace kalah
