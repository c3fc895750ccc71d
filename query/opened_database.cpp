// opened_database.cpp: the database a search stops at, and its answer store
// (query/opened_database.h).
#include "query/opened_database.h"

#include <iostream>
#include <stdexcept>

#include "db/file_names.h"

namespace kalah {

namespace {

std::unique_ptr<Database> open_search_database(const DatabaseOptions& o, const Rules& rules) {
  // A search probes all over the database: a cache that holds all of it decodes each block once
  // (m = 6, <= 24 seeds: 1.25 GB); a database bigger than half the memory is evicted from.
  if (!o.db.empty()) return std::make_unique<Database>(o.db, rules, Database::search_cache_bytes());
  if (o.no_db || default_database_dir().empty()) return nullptr;
  try {  // the default directory, if it holds these rules
    return std::make_unique<Database>(default_database_dir(), rules,
                                      Database::search_cache_bytes());
  } catch (const std::invalid_argument&) {
  } catch (const FileError& e) {  // not given, so not fatal: the search goes on alone
    std::cerr << "note: not using the default database: " << e.what() << "\n";
  }
  return nullptr;
}

}  // namespace

OpenedDatabase open_database(const DatabaseOptions& o, const Rules& rules) {
  if (o.no_db && !o.db.empty()) throw std::invalid_argument("give --db or --no-db, not both");
  OpenedDatabase t;
  t.db = open_search_database(o, rules);
  if (!t.db) return t;
  t.dir = t.db->dir();
  if (!o.no_store) t.store = open_answer_store(t.dir, rules);
  return t;
}

}  // namespace kalah
