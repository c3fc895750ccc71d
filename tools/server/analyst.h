// analyst.h: what `kalah serve` answers, apart from HTTP: a position's analysis from the
// databases of a directory, or by a search with a time budget, with a cache of answers.
//
// Thread-safe: any number of requests at once. Database answers are immediate; at most
// `max_searches` searches run at once (each with its own tables, sharing the cores), and a
// search that waits or runs past its budget answers with the bounds proven so far. Its parts:
// the request's parameters (request.h), the cache (answer_cache.h), the searches' admission and
// names (searches.h).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "db/database.h"
#include "query/query.h"
#include "store/answer_store.h"
#include "tools/server/answer_cache.h"
#include "tools/server/request.h"
#include "tools/server/searches.h"

namespace kalah {

struct AnalystOptions {
  std::string dir;              // databases of every variant found here
  RequestLimits limits;         // the default budget and the most a request may ask for
  size_t table_mb = 8;          // per root move of a search
  int max_searches = 2;         // searches at once
  size_t cache_entries = 4096;  // exact answers kept
  bool store = true;            // answer stores beside the databases
};

class Analyst {
 public:
  using Clock = std::chrono::steady_clock;

  // Opens the databases of every variant in options.dir (none if it does not exist).
  explicit Analyst(const AnalystOptions& options);

  // parse_request under this server's limits.
  ServeRequest prepare(const Params& params, Clock::time_point arrival = Clock::now()) const {
    return parse_request(params, options_.limits, arrival);
  }
  // Whether the answer needs a search (the position is in no open database); cheap.
  bool needs_search(const ServeRequest& r) const;
  // Whether its answer is in the cache.
  bool cached(const ServeRequest& r);
  // The answer as one line of JSON: cached, from a database, or by a search within the
  // deadline (bounds past it). Throws FileError when a decoded copy changed under it.
  std::string analyse(const ServeRequest& r);
  // The move kalah plays (query/move_choice.h) at the request's level within its budget, as
  // JSON (move_json): perfect when proven in time, else the heuristic's. Not cached.
  std::string move(const ServeRequest& r);
  // What the running search named `search_id` has proven so far (progress_json), or
  // {"running": false} when none runs under that name. Cheap: for the I/O thread.
  std::string progress(const std::string& search_id) { return named_.progress(search_id); }
  // Stops the search named `search_id` (running, or waiting for its turn): it answers with the
  // bounds proven so far. {"cancelled": bool}. Cheap.
  std::string cancel(const std::string& search_id) { return named_.cancel(search_id); }
  // prepare, then analyse.
  std::string analyse(const Params& params) { return analyse(prepare(params)); }

  // Stops the searches running now and answers every later one with bounds at once: for a
  // server on its way out. Thread-safe.
  void close() { admission_.close(); }

  // "m=6 capture=empty ... layers 1..22", one per open database.
  std::vector<std::string> databases() const;
  // Where searched answers are kept: the answer stores' directories (none with store off).
  std::vector<std::string> stores() const;
  // The answer store (and book) of these rules, or null.
  const AnswerStore* store_of(const Rules& rules) const {
    const Served* s = served(rules);
    return s ? s->store.get() : nullptr;
  }

 private:
  // The outcome: from a database or the store at once, else by a search in a slot.
  Outcome compute(const ServeRequest& r);
  // The query of a request: its rules, position, database and answer store, deadline.
  Query query(const ServeRequest& r) const;
  // Runs `search` with a stop flag that close() and cancel() raise, as one of max_searches at
  // once, waiting until the request's deadline at most; `busy` answers when it cannot start.
  Outcome in_search_slot(const ServeRequest& r,
                         const std::function<Outcome(const StopFlag& stop)>& search,
                         const std::function<Outcome(StopReason why)>& busy);
  // A database of every variant in the directory, with its answer store.
  struct Served {
    std::unique_ptr<Database> db;
    std::unique_ptr<AnswerStore> store;
  };
  const Served* served(const Rules& rules) const;

  AnalystOptions options_;
  std::vector<Served> databases_;
  SearchAdmission admission_;
  NamedSearches named_;
  AnswerCache cache_;
};

}  // namespace kalah
