// play_support.h: what `kalah play` (tools/cli/cmd_play.cpp) is made of beside its game loop: its
// --level (query/levels.h), the coach's values, the command that replays a game.
#pragma once

#include <string>

#include "game/notation.h"
#include "query/levels.h"
#include "query/query.h"
#include "tools/cli/game_options.h"

namespace kalah {

// --level: query/levels.h's level_named, UsageError for anything else.
const Level& parse_level(const std::string& name);

// What is known of a position's value for its mover within `seconds`: proven, or the
// heuristic's estimate. `base` brings the rules, the database and the store.
struct Valued {
  int value = 0;
  bool proven = false;
};
Valued value_within(const Query& base, const Position& p, double seconds);

// The value of `pit` at p for p's mover, proven, when the tables (database, answer store) hold
// p's analysis; else not proven.
Valued stored_move_value(const Query& base, const Position& p, int pit);

// What kalah's choice for `side` tells, and how far it can be trusted (`seconds`: its time).
std::string verdict(Side side, const MoveChoice& c, double seconds);
// A weaker level's choice: how far below the best it is, and whether that is proven.
std::string level_note(const Level& level, const MoveChoice& c);

// The command that replays a record: the game's options as given (`given_position`: the game
// started from a position, not --seeds), then --moves.
std::string replay_command(bool given_position, const Game& g, const std::vector<Turn>& record);

}  // namespace kalah
