// analyst.h: what `kalah serve` answers, apart from HTTP: a position's analysis from the
// databases of a directory, or by a search with a time budget, with a cache of answers.
//
// Thread-safe: any number of requests at once. Database answers are immediate; at most
// `max_searches` searches run at once (each with its own tables, sharing the cores), and a
// search that waits or runs past its budget answers with the bounds proven so far.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <semaphore>
#include <set>
#include <string>
#include <unordered_map>

#include "api/query.h"
#include "db/database.h"
#include "store/answer_store.h"

namespace kalah {

struct AnalystOptions {
  std::string dir;                              // databases of every variant found here
  std::chrono::milliseconds budget{3000};       // the default per-request budget
  std::chrono::milliseconds max_budget{60000};  // what a request may ask for at most
  size_t table_mb = 8;                          // per root move of a search
  int max_searches = 2;                         // searches at once
  size_t cache_entries = 4096;                  // exact answers kept
  bool store = true;                            // answer stores beside the databases
};

class Analyst {
 public:
  using Clock = std::chrono::steady_clock;
  using Params = std::map<std::string, std::string>;

  // Opens the databases of every variant in options.dir (none if it does not exist).
  explicit Analyst(const AnalystOptions& options);

  // A request, checked: its rules, position and deadline (its arrival plus its budget).
  struct Request {
    Rules rules;
    Position position;
    bool value_only = false;  // the position's value alone, when it takes a search
    const Level* level = nullptr;  // move(): the computer's level (api/levels.h)
    std::string search_id;    // the client's name for its search: progress() and cancel() by it
    Clock::time_point arrival, deadline;
  };
  // The query parameters of /api/v1/analyse and /api/v1/move (position, pits, capture, end,
  // remainder, budget_ms, value_only, search, level: its time unless budget_ms), checked; throws std::invalid_argument (with the command line's
  // message).
  Request prepare(const Params& params, Clock::time_point arrival = Clock::now()) const;
  // Whether the answer needs a search (the position is in no open database); cheap.
  bool needs_search(const Request& r) const;
  // Whether its answer is in the cache.
  bool cached(const Request& r);
  // The answer as one line of JSON: cached, from a database, or by a search within the
  // deadline (bounds past it). Throws DatabaseError when a decoded copy changed under it.
  std::string answer(const Request& r);
  // The move kalah plays (api/move_choice.h) within the request's budget, as JSON (move_json):
  // perfect when proven in time, else the heuristic's. Not cached.
  std::string move(const Request& r);
  // What the running search named `search_id` has proven so far (progress_json), or
  // {"running": false} when none runs under that name. Cheap: for the I/O thread.
  std::string progress(const std::string& search_id);
  // Stops the search named `search_id` (running, or waiting for its turn): it answers with the
  // bounds proven so far. {"cancelled": bool}. Cheap.
  std::string cancel(const std::string& search_id);
  // prepare and answer.
  std::string analyse(const Params& params) { return answer(prepare(params)); }

  // Stops the searches running now and answers every later one with bounds at once: for a
  // server on its way out. Thread-safe.
  void close();

  // "m=6 capture=empty ... layers 1..22", one per open database.
  std::vector<std::string> databases() const;
  // Where searched answers are kept: the answer stores' directories (none with store off).
  std::vector<std::string> stores() const;

 private:
  // The answer; `exact` tells whether it may be cached (not bounds).
  std::string compute(const Request& r, bool& exact);
  // The query of a request: its rules, position, database and answer store, deadline.
  Query query(const Request& r) const;
  // Runs `search` with a stop flag that close() and cancel() raise, as one of max_searches at
  // once, waiting until the request's deadline at most; `busy` answers when it cannot start.
  std::string in_search_slot(const Request& r,
                             const std::function<std::string(const StopFlag& stop)>& search,
                             const std::function<std::string(StopReason why)>& busy);
  // A database of every variant in the directory, with its answer store.
  struct Served {
    std::unique_ptr<Database> db;
    std::unique_ptr<AnswerStore> store;
  };
  const Served* served(const Rules& rules) const;

  AnalystOptions options_;
  std::vector<Served> databases_;
  std::counting_semaphore<1024> searches_;

  // The stop flags of the searches running now, for close(); and those with a client's name, with
  // what they have proven so far, for progress() and cancel().
  struct Live {
    Rules rules;
    Position position;
    StopFlag* stop;
    Clock::time_point start = Clock::now();
    std::mutex mutex;
    SearchProgress so_far;  // under mutex
    bool reported = false;
    std::optional<Estimate> estimate;  // under mutex
  };
  std::shared_ptr<Live> live(const std::string& search_id);
  std::mutex running_mutex_;
  std::set<StopFlag*> running_;
  std::map<std::string, std::shared_ptr<Live>> named_;
  bool closed_ = false;

  // Exact answers by "rules|absolute position", least recently used first.
  std::mutex cache_mutex_;
  std::list<std::pair<std::string, std::string>> lru_;
  std::unordered_map<std::string, std::list<std::pair<std::string, std::string>>::iterator> cache_;
};

// The `search` parameter: a client's name for its search (1..64 of [A-Za-z0-9_-]), or "" when
// absent; throws std::invalid_argument otherwise.
std::string search_name(const std::map<std::string, std::string>& params);

}  // namespace kalah
