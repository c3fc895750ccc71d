// game_options.h: the game a command line names (`solve`, `play`, `book`): the start of
// Kalah(M,N) or a given position, a game record played from it, the rules; and the options of
// the database a search stops at (also `kgp`'s; query/opened_database.h opens it).
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "game/game_record.h"
#include "query/opened_database.h"
#include "query/query.h"
#include "tools/cli/cli.h"

namespace kalah {

// `rules_in_db` says which rules the database must hold (for the help).
void add_database_options(po::options_description& desc, DatabaseOptions& o,
                          const std::string& rules_in_db = "the rules");

struct GameOptions {
  static constexpr int kNotGiven = std::numeric_limits<int>::min();
  int pits = kNotGiven;
  int seeds = kNotGiven;
  std::string position;
  std::string moves;  // a game record played from the position first
  RuleFlags rule_flags;
  DatabaseOptions database;
};

// Which database options a command takes.
enum class DatabaseChoice {
  kOptional,  // --db DIR or --no-db, and --no-store: a search that may go without either
  kRequired,  // --db alone: a command that needs the database and its store (`book`)
};
// --pits, --seeds, --position, --moves, the rule flags and the database options.
void add_game_options(po::options_description& desc, GameOptions& o,
                      DatabaseChoice database = DatabaseChoice::kOptional);

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

}  // namespace kalah
