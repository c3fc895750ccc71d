// answer_sense.h: what an answer record holds beyond its keyed hash, read back and checked for
// sense (store/answer_store.h): a record is believed only when what it says adds up.
#pragma once

#include <string>

#include "game/rules.h"
#include "solver/analysis.h"

namespace kalah {

// "pit:value:turn" of every move (`moves`) and the best line's turns (`line`), into a; false when
// a word is malformed or a pit or value out of range.
bool read_moves(const Rules& rules, const std::string& moves, const std::string& line, Analysis& a);

// What is wrong with an analysis of p, or "" when it makes sense: the game's end as the rules
// say, every legal move once in pit order with its turn starting at its pit and a value the
// seeds in play allow, the value the best move's, the best line starting with a best move.
std::string nonsense(const Rules& rules, const Position& p, const Analysis& a);

}  // namespace kalah
