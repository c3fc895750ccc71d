// opened_database.h: the database a front end's search stops at (`--db DIR`, `--no-db`, the
// default directory), opened with the answer store beside it: the command line's and the KGP
// client's.
#pragma once

#include <memory>
#include <string>

#include "db/database.h"
#include "query/query.h"
#include "store/answer_store.h"

namespace kalah {

// Which database a search stops at: `db`, else the default directory; none with `no_db`; the
// answer store beside it unless `no_store`.
struct DatabaseOptions {
  std::string db;
  bool no_db = false;
  bool no_store = false;  // search again what the database's answer store holds
};
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
// o.db (its errors are fatal), else the default directory when it holds the rules (a note on
// stderr when it cannot be used: the search goes on alone), else none (no_db, or no directory).
// std::invalid_argument for db and no_db both.
OpenedDatabase open_database(const DatabaseOptions& o, const Rules& rules);

}  // namespace kalah
