// levels.h: the computer's playing levels, one table for every front end (`kalah play --level`,
// /api/v1/move?level=, the board, which reads them from /api/v1/info; docs/board.md).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"

namespace kalah {

struct Level {
  const char* name;
  double seconds;  // its time for a move
  int within;      // < 0: kalah's best move; else one at random within this many seeds of it

  bool weaker() const { return within >= 0; }
};

// perfect (30 s), strong (5 s), quick (1 s), casual (1 s, within 3 seeds), beginner (1 s,
// within 8), strongest first.
std::span<const Level> levels();
// The level named `name`, else std::invalid_argument naming the levels.
const Level& level_named(std::string_view name);
// [{"name", "seconds", "within"}] in the table's order (within absent for the best move).
std::vector<JsonObject> levels_json();

}  // namespace kalah
