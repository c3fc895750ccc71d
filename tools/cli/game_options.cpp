// game_options.cpp: one reading of --pits/--seeds/POSITION/--moves and of --db/--no-db.
#include "tools/cli/game_options.h"

#include <iostream>

#include "db/file_names.h"
#include "game/notation.h"

namespace kalah {

void add_database_options(po::options_description& desc, DatabaseOptions& o,
                          const std::string& rules_in_db) {
  desc.add_options()(
      "db", po::value(&o.db)->value_name("DIR"),
      ("endgame database (kalah build) whose values end the search early; without --db, the "
       "default directory (" +
       default_database_dir() + ") is used when it holds layers of " + rules_in_db)
          .c_str())("no-db", po::bool_switch(&o.no_db), "search alone, without any database");
}

void add_game_options(po::options_description& desc, GameOptions& o, DatabaseChoice database) {
  desc.add_options()("pits", po::value(&o.pits)->value_name("M"),
                     "pits per row, 1..8 (default 6; must agree with a given position)")(
      "seeds", po::value(&o.seeds)->value_name("N"), "seeds per pit of the start position")(
      "position", po::value(&o.position)->value_name("POS"),
      "a position: 'A/B[/x,y]' side-relative or 2m+2 bins and S|N (see 'kalah help')")(
      "moves", po::value(&o.moves)->value_name("RECORD"),
      "play a game record first, e.g. 'S:3-6 N:2-1' (turns of pits, as 'kalah play' prints)");
  if (database == DatabaseChoice::kOptional) {
    add_database_options(desc, o.database);
    desc.add_options()(
        "no-store", po::bool_switch(&o.database.no_store),
        "search even what the database's answer store holds (for measuring; KALAH_STORE=off in "
        "the environment does the same for every command)");
  } else {
    desc.add_options()("db", po::value(&o.database.db)->value_name("DIR"),
                       ("database directory (default " + default_database_dir() + ")").c_str());
  }
  add_rule_options(desc, o.rule_flags);
}

Game resolve_game(const GameOptions& o, int default_seeds) {
  if (o.database.no_db && !o.database.db.empty())
    throw UsageError("give --db or --no-db, not both");
  Game g;
  const bool pits_given = o.pits != GameOptions::kNotGiven;
  const bool seeds_given = o.seeds != GameOptions::kNotGiven;
  if (seeds_given && o.seeds < 0)
    throw UsageError("--seeds must be 0 or more (seeds in each pit), got " +
                     std::to_string(o.seeds));
  int m = pits_given ? o.pits : 6;
  if (pits_given) make_rules(o.pits, o.rule_flags);  // refuses pits out of range first
  if (!o.position.empty()) {
    if (seeds_given)
      throw UsageError("give either --seeds (a start position) or a position, not both");
    const ParsedPosition parsed = parse_position(o.position, pits_given ? o.pits : 0);
    m = parsed.pits;
    g.start = parsed.position;
    g.title = "a position of " + std::to_string(m) + "-pit Kalah";
  } else {
    const int n = seeds_given ? o.seeds : default_seeds;
    if (n < 0) throw UsageError("nothing to solve: give --seeds N (and --pits M) or a position");
    try {
      g.start = start_position(m, n);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--") + e.what());
    }
    g.title = "Kalah(" + std::to_string(m) + "," + std::to_string(n) + ") start position";
  }
  g.rules = make_rules(m, o.rule_flags);
  g.record = parse_record(o.moves, m);
  g.position = replay(g.rules, g.start, g.record);
  if (!g.record.empty()) g.title += " after " + format_record(g.record);
  return g;
}

}  // namespace kalah
