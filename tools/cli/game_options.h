// game_options.h: the game a command line names (`solve`, `play`, `book`): the start of
// Kalah(M,N) or a given position, a game record played from it, the rules; and the database a
// search stops at (also `kgp`'s), with the answer store beside it.
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "db/database.h"
#include "query/query.h"
#include "solver/game_record.h"
#include "store/answer_store.h"
#include "tools/cli/cli.h"

namespace kalah {

// --db DIR and --no-db (and, for the commands that read the answer store, --no-store): the
// database a search stops at.
struct DatabaseOptions {
  std::string db;
  bool no_db = false;
  bool no_store = false;  // search again what the database's answer store holds
};
// `rules_in_db` says which rules the database must hold (for the help).
void add_database_options(po::options_description& desc, DatabaseOptions& o,
                          const std::string& rules_in_db = "the rules");

struct GameOptions {
  static constexpr int kNotGiven = std::numeric_limits<int>::min();
  int pits = kNotGiven;
  int seeds = -1;  // -1: not given
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

// The database a search stops at, and the answer store beside it (none with --no-store or
// KALAH_STORE=off).
struct OpenedDatabase {
  std::unique_ptr<Database> db;
  std::unique_ptr<AnswerStore> store;
  std::string dir;  // of db, or "" for none

  // Gives q the database and the store.
  void attach(Query& q) const {
    q.db = db.get();
    q.store = store.get();
  }
};
// --db DIR (its errors are fatal), else the default directory when it holds the rules (a note on
// stderr when it cannot be used: the search goes on alone), else none (--no-db or no directory).
OpenedDatabase open_database(const DatabaseOptions& o, const Rules& rules);

}  // namespace kalah
