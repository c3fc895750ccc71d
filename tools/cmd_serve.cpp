// cmd_serve.cpp: `kalah serve`, the analysis board and its HTTP API (cpp-httplib).
#include <httplib.h>
#include <signal.h>

#include <iostream>
#include <thread>

#include "api/answer.h"
#include "solver/threads.h"
#include "tools/analyst.h"
#include "tools/cli.h"

namespace kalah {

// The analysis board (tools/board.html), embedded by tools/CMakeLists.txt.
extern const char* const kBoardHtml;

namespace {

struct ServeOptions {
  std::string dir;
  std::string host = "127.0.0.1";
  int port = 8080;
  int threads = 0;
  int requests = 16;
  int64_t budget_ms = 3000;
  int64_t max_budget_ms = 60000;
  bool json = false;
};

constexpr CommandHelp kHelp = {
    "serve",
    "kalah serve [--db DIR] [--host ADDR] [--port P] [--threads T] [--budget-ms MS] [--json]",
    "Serves an analysis board and an HTTP API over the databases of every rule variant in DIR\n"
    "and the search. Open http://HOST:PORT/ in a browser: the board shows every legal move's\n"
    "value and result (click a pit to play it), the best line, undo/redo, an edit mode, and\n"
    "keeps the position and rules in the URL.\n"
    "  GET /api/v1/analyse?position=POS[&pits=M][&capture=..][&end=..][&remainder=..]\n"
    "      [&budget_ms=MS] answers with the JSON of 'kalah solve --json' (docs/json.md),\n"
    "      \"command\": \"serve\". A position in a database is looked up; one above it is "
    "searched\n"
    "      (ending at the database) within the budget, after which the answer holds the bounds\n"
    "      proven so far (\"interrupted\": true, \"source\": \"bounds\"). Exact answers are "
    "cached.\n"
    "  Bad input: 400 with {\"error\": ...}; unknown paths: 404.\n"
    "Binds to the loopback address unless --host says otherwise; --port 0 takes a free port.\n"
    "The first line on standard output says where it listens. Ctrl-C stops it.",
    "  kalah serve\n"
    "  kalah serve --db db --port 9000 --budget-ms 10000\n"
    "  curl 'http://127.0.0.1:8080/api/v1/analyse?position=1,0,2/0,1,1/3,4&capture=empty'\n"};

std::string error_json(const std::string& message) {
  return answer_json("serve").add("error", message).str();
}

// The board at /, the analysis at /api/v1/analyse, JSON errors everywhere else.
void add_routes(httplib::Server& server, Analyst& analyst) {
  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(kBoardHtml, "text/html; charset=utf-8");
  });
  server.Get("/api/v1/analyse", [&](const httplib::Request& req, httplib::Response& res) {
    std::map<std::string, std::string> params;
    for (const auto& [name, value] : req.params)
      if (!params.emplace(name, value).second) {
        res.status = 400;
        res.set_content(error_json("parameter '" + name + "' given twice"), "application/json");
        return;
      }
    try {
      res.set_content(analyst.analyse(params), "application/json");
    } catch (const std::invalid_argument& e) {
      res.status = 400;
      res.set_content(error_json(e.what()), "application/json");
    }
  });
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr e) {
        std::string what = "internal error";
        try {
          std::rethrow_exception(e);
        } catch (const std::exception& x) {
          what = x.what();
        } catch (...) {
        }
        res.status = 500;
        res.set_content(error_json(what), "application/json");
      });
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;  // a handler's own answer
    res.set_content(error_json(res.status == 404 ? "no such path: " + req.path
                                                 : "HTTP status " + std::to_string(res.status)),
                    "application/json");
  });
}

// Binds, then says where it listens (the first line on standard output) and what it serves.
void bind_and_announce(httplib::Server& server, const ServeOptions& o, const Analyst& analyst) {
  const int port = o.port == 0 ? server.bind_to_any_port(o.host)
                               : (server.bind_to_port(o.host, o.port) ? o.port : -1);
  if (port < 0)
    throw std::runtime_error("cannot listen on " + o.host + ":" + std::to_string(o.port));
  const std::string url = "http://" + o.host + ":" + std::to_string(port) + "/";
  if (o.json) {
    std::cout << answer_json("serve")
                     .add("url", url)
                     .add("db", o.dir)
                     .add("databases", analyst.databases())
                     .str()
              << std::endl;
    return;
  }
  std::cout << "kalah serve: listening on " << url << std::endl;
  for (const auto& d : analyst.databases()) std::cout << "  database " << d << "\n";
  if (analyst.databases().empty())
    std::cout << "  no databases in " << o.dir << ": every answer is searched\n";
  std::cout << std::flush;
}

// Serves until one of `signals` (blocked in every thread) arrives; returns whether it listened.
bool serve_until(httplib::Server& server, const sigset_t& signals) {
  std::thread stopper([&] {
    int signal = 0;
    sigwait(&signals, &signal);
    server.stop();
  });
  const bool ok = server.listen_after_bind();
  if (!ok && stopper.joinable()) pthread_kill(stopper.native_handle(), SIGTERM);
  stopper.join();
  return ok;
}

}  // namespace

int cmd_serve(const std::vector<std::string>& args, bool check_only) {
  ServeOptions o;
  po::options_description desc("options");
  add_db_option(desc, o.dir, "database directory: every rule variant in it is served");
  desc.add_options()("host", po::value(&o.host)->default_value(o.host)->value_name("ADDR"),
                     "address to listen on (0.0.0.0: every interface)")(
      "port", po::value(&o.port)->default_value(o.port)->value_name("P"),
      "port; 0 = any free port")("requests",
                                 po::value(&o.requests)->default_value(o.requests)->value_name("N"),
                                 "requests served at once")(
      "budget-ms", po::value(&o.budget_ms)->default_value(o.budget_ms)->value_name("MS"),
      "time a search may take when the request does not say (budget_ms)")(
      "max-budget-ms",
      po::value(&o.max_budget_ms)->default_value(o.max_budget_ms)->value_name("MS"),
      "the largest budget_ms a request may ask for")("json", po::bool_switch(&o.json),
                                                     "say where it listens as one JSON object");
  add_threads_option(desc, o.threads);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm)) return kExitOk;
  check_range("--port", o.port, 0, 65535);
  check_range("--requests", o.requests, 1, 1024);
  check_range<int64_t>("--max-budget-ms", o.max_budget_ms, 1, 24 * 3600 * 1000);
  check_range<int64_t>("--budget-ms", o.budget_ms, 1, o.max_budget_ms);
  const ThreadLimit limit(o.threads);
  if (check_only) return kExitOk;

  // Ctrl-C and SIGTERM are taken by a thread of its own (serve_until), not by a signal handler:
  // blocked here, before any thread starts, so that every thread inherits the mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  AnalystOptions a;
  a.dir = o.dir;
  a.budget = std::chrono::milliseconds(o.budget_ms);
  a.max_budget = std::chrono::milliseconds(o.max_budget_ms);
  a.max_searches = std::max(1, limit.threads());
  Analyst analyst(a);
  httplib::Server server;
  server.new_task_queue = [&] { return new httplib::ThreadPool(o.requests); };
  server.set_payload_max_length(1 << 16);
  add_routes(server, analyst);
  bind_and_announce(server, o, analyst);
  return serve_until(server, signals) ? kExitOk : kExitFailure;
}

}  // namespace kalah
