// play_support.h: what `kalah play` (tools/cmd_play.cpp) is made of beside its game loop: the
// computer's levels (the board's, tools/board_server.js, are the same: docs/board.md), the
// coach's values, the command that replays a game.
#pragma once

#include <random>
#include <string>

#include "api/move_choice.h"
#include "api/query.h"
#include "solver/notation.h"
#include "tools/game_options.h"

namespace kalah {

struct Level {
  const char* name;
  double seconds;  // for its move
  int within;      // < 0: kalah's best move; else one at random within this many seeds of it
};
// "perfect", "strong", "quick", "casual" or "beginner"; UsageError for anything else.
const Level& parse_level(const std::string& name);

// What is known of a position's value for its mover within `seconds`: proven, or the
// heuristic's estimate. `base` brings the rules, the database and the store.
struct Valued {
  int value = 0;
  bool proven = false;
};
Valued value_within(const Query& base, const Position& p, double seconds);

// A weaker level's move: every move's value (or estimate) within `seconds`, then one at random
// among those within `within` seeds of the best; its value in the choice.
MoveChoice level_move(const Query& base, const Position& p, int within, double seconds,
                      std::mt19937& rng);

// The command that replays a record: the game's options as given (`given_position`: the game
// started from a position, not --seeds), then --moves.
std::string replay_command(bool given_position, const Game& g, const std::vector<Turn>& record);

}  // namespace kalah
