// game_options.h: the game a command line names (`solve`, `play`): the start of Kalah(M,N) or a
// given position, a game record played from it, the rules, and the database a search stops at.
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "db/database.h"
#include "solver/game_record.h"
#include "tools/cli.h"

namespace kalah {

struct GameOptions {
  static constexpr int kNotGiven = std::numeric_limits<int>::min();
  int pits = kNotGiven;
  int seeds = -1;  // -1: not given
  std::string position;
  std::string moves;  // a game record played from the position first
  RuleFlags rule_flags;
  std::string db;
  bool no_db = false;
  bool no_store = false;  // search again what the database's answer store holds
};

// --pits, --seeds, --position, --moves, --db, --no-db, --no-store and the rule flags.
void add_game_options(po::options_description& desc, GameOptions& o);

struct Game {
  Rules rules;
  Position start;     // before the record
  Position position;  // after it
  std::vector<Turn> record;
  std::string title;  // "Kalah(6,4) start position", "position", "... after S:3-6"
};

// Throws UsageError (or std::invalid_argument, naming what is wrong) for a game that cannot be.
// `default_seeds` > 0 stands for --seeds when neither it nor a position is given.
Game resolve_game(const GameOptions& o, int default_seeds = -1);

// --db DIR (its errors are fatal), else the default directory when it holds the rules (a note on
// stderr when it cannot be used: the search goes on alone), else none (--no-db or no directory).
std::unique_ptr<Database> search_database(const GameOptions& o, const Rules& rules);

// The directory search_database opens, for what a command prints.
std::string search_database_dir(const GameOptions& o);

}  // namespace kalah
