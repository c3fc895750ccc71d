// cmd_serve.cpp: `kalah serve`, the analysis board and its HTTP API (tools/server/http_server.h).
#include <filesystem>
#include <iostream>

#include "base/threads.h"
#include "query/json_parts.h"
#include "tools/cli/cli.h"
#include "tools/server/analyst.h"
#include "tools/server/http_server.h"
#include "tools/server/routes.h"

namespace kalah {

namespace {

struct ServeOptions {
  std::string dir;
  std::string host = "127.0.0.1";
  int port = 8080;
  int threads = 0;
  int connections = 1024;
  int64_t timeout_ms = 10000;
  int64_t budget_ms = 3000;
  int64_t max_budget_ms = 60000;
  bool json = false;
  bool no_store = false;
};

// Searches at once, a share of the cores each: a second client's analysis starts at once beside a
// first one's long search instead of waiting out its budget.
constexpr int kSearchesPerThread = 4;
// Search requests that wait for a slot at once, at least (each holds a sleeping thread).
constexpr int kSearchWaiters = 64;

constexpr CommandHelp kHelp = {
    "serve",
    "kalah serve [--db DIR] [--host ADDR] [--port P] [--threads T] [--budget-ms MS] [--json]",
    "Serves an analysis board and an HTTP API over the databases of every rule variant in DIR\n"
    "and the search. Open http://HOST:PORT/ in a browser: the board shows every legal move's\n"
    "value and result (click a pit to play it), the best line, undo/redo, an edit mode, and\n"
    "keeps the position and rules in the URL.\n"
    "  GET /api/v1/analyse?position=POS[&pits=M][&capture=..][&end=..][&remainder=..]\n"
    "      [&budget_ms=MS][&value_only=1] answers with the JSON of 'kalah solve --json'\n"
    "      (docs/json.md; with value_only=1, of --value-only unless a database answers all),\n"
    "      \"command\": \"serve\". A position in a database is looked up; one above it is "
    "searched\n"
    "      (ending at the database) within the budget, after which the answer holds the bounds\n"
    "      proven so far (\"interrupted\": true, \"source\": \"bounds\"). Exact answers are "
    "cached.\n"
    "  GET /api/v1/moves?position=POS[&pits=M][&capture=..][&end=..][&remainder=..] answers at\n"
    "      once, without searching: the legal moves and the position each leads to, or the\n"
    "      final value of a finished game. The board plays moves with it and shows the values\n"
    "      as /api/v1/analyse finds them.\n"
    "  GET /api/v1/move?position=POS[..][&level=L][&budget_ms=MS] the move kalah plays there:\n"
    "      perfect when its value is proven within the budget (database or value search), else\n"
    "      the best of a heuristic search, \"proven\": false. At level casual or beginner, one\n"
    "      at random within 3 or 8 seeds of the best (\"best\": its value); the level's time\n"
    "      unless budget_ms is given. The board's computer player uses it.\n"
    "  With &search=NAME (the client's name for it), /api/v1/analyse's search can be watched,\n"
    "      GET /api/v1/progress?search=NAME (each move's bounds proven so far), and stopped,\n"
    "      GET /api/v1/cancel?search=NAME (it answers with its bounds at once).\n"
    "  Bad input: 400 with {\"error\": ...}; unknown paths: 404; methods but GET: 405.\n"
    "  GET /api/v1/info: the databases served, where searched answers are kept, the rules'\n"
    "      choices and the levels (name, seconds, within).\n"
    "Database answers never wait for searches: up to 4 searches a thread run at once, sharing\n"
    "the cores, the others queue within their budget. Searched answers are kept in the answer\n"
    "store beside each database (DIR/answers; --no-store: none). A request must arrive whole\n"
    "within --timeout-ms, with at most 16 KiB of request line and headers (431 past that).\n"
    "Binds to the loopback address unless --host says otherwise; --port 0 takes a free port.\n"
    "The first line on standard output says where it listens. Ctrl-C or SIGTERM stops it at\n"
    "once, running searches included.",
    "  kalah serve\n"
    "  kalah serve --db db --port 9000 --budget-ms 10000\n"
    "  curl 'http://127.0.0.1:8080/api/v1/analyse?position=1,0,2/0,1,1/3,4&capture=empty'\n"};

// Says where it listens (the first line on standard output) and what it serves.
void announce(const ServeOptions& o, int port, const Analyst& analyst) {
  const std::string url = "http://" + o.host + ":" + std::to_string(port) + "/";
  if (o.json) {
    std::cout << kalah_json("serve")
                     .add("url", url)
                     .add("db", o.dir)
                     .add("databases", analyst.databases())
                     .add("answers", analyst.stores())
                     .str()
              << std::endl;
    return;
  }
  std::cout << "kalah serve: listening on " << url << std::endl;
  for (const auto& d : analyst.databases()) std::cout << "  database " << d << "\n";
  for (const auto& d : analyst.stores())
    std::cout << "  searched answers kept in " << d << " (--no-store: none)\n";
  if (analyst.databases().empty())
    std::cout << "  no databases in " << o.dir << ": every answer is searched\n";
  std::cout << std::flush;
}

}  // namespace

int cmd_serve(const std::vector<std::string>& args, bool check_only) {
  ServeOptions o;
  po::options_description desc("options");
  add_db_option(desc, o.dir, "database directory: every rule variant in it is served");
  desc.add_options()("host", po::value(&o.host)->default_value(o.host)->value_name("ADDR"),
                     "address to listen on (0.0.0.0: every interface)")(
      "port", po::value(&o.port)->default_value(o.port)->value_name("P"),
      "port; 0 = any free port")(
      "connections", po::value(&o.connections)->default_value(o.connections)->value_name("N"),
      "connections held at once; more are closed as soon as they are accepted")(
      "timeout-ms", po::value(&o.timeout_ms)->default_value(o.timeout_ms)->value_name("MS"),
      "time a client has to send a whole request (idle time before it included), and to take "
      "an answer")("budget-ms",
                   po::value(&o.budget_ms)->default_value(o.budget_ms)->value_name("MS"),
                   "time a search may take when the request does not say (budget_ms)")(
      "max-budget-ms",
      po::value(&o.max_budget_ms)->default_value(o.max_budget_ms)->value_name("MS"),
      "the largest budget_ms a request may ask for")("json", po::bool_switch(&o.json),
                                                     "say where it listens as one JSON object")(
      "no-store", po::bool_switch(&o.no_store),
      "keep no searched answers beside the databases (and read none): a read-only database");
  add_threads_option(desc, o.threads);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm)) return kExitOk;
  check_range("--port", o.port, 0, 65535);
  check_range("--connections", o.connections, 1, 100000);
  check_range<int64_t>("--timeout-ms", o.timeout_ms, 100, 3600 * 1000);
  check_range<int64_t>("--max-budget-ms", o.max_budget_ms, 1, 3600 * 1000);
  check_range<int64_t>("--budget-ms", o.budget_ms, 1, o.max_budget_ms);
  const ThreadLimit limit(o.threads);
  if (!vm["db"].defaulted() && !std::filesystem::is_directory(o.dir))
    throw UsageError(o.dir + ": no such database directory");
  if (check_only) return kExitOk;

  AnalystOptions a;
  a.dir = o.dir;
  a.store = !o.no_store;
  a.limits.budget = std::chrono::milliseconds(o.budget_ms);
  a.limits.max_budget = std::chrono::milliseconds(o.max_budget_ms);
  a.max_searches = kSearchesPerThread * std::max(1, limit.threads());
  Analyst analyst(a);
  HttpLimits limits;
  limits.max_connections = static_cast<size_t>(o.connections);
  limits.request_timeout = limits.write_timeout = std::chrono::milliseconds(o.timeout_ms);
  // Threads beyond the searches admitted at once wait for a slot (tools/server/searches.h)
  // within their own budget, and then answer with what they have: in the pool's queue they
  // would wait, holding no thread, for a running search to end, whatever their budget.
  limits.search_threads = std::max(kSearchWaiters, 4 * a.max_searches);
  HttpServer server(
      o.host, o.port, limits, [&](const std::string& target) { return route(target, analyst); },
      error_json);
  announce(o, server.port(), analyst);
  // Ctrl-C or SIGTERM: running searches stop, the process exits at once.
  server.run([&] { analyst.close(); });
  return kExitOk;
}

}  // namespace kalah
