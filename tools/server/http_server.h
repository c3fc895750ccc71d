// http_server.h: the HTTP/1.1 server of `kalah serve` (Boost.Beast, asynchronous), apart from
// what it answers (tools/server/analyst.h).
//
// One thread does all network I/O: a connection costs no thread, so idle, slow or greedy clients
// cannot starve the others. Each request must arrive whole within `request_timeout` of the
// connection being ready for it (a client that sends a header byte a second is cut off, as is one
// that idles); its request line and headers may take `header_bytes`, its body `body_bytes`
// (else 431 or 413 and the connection closes); only GET is served (405 otherwise, Allow: GET);
// ranges are not served. Answers that read a database run on a pool of `fast_threads`; answers
// that search run on a pool of `search_threads`, queued (holding no thread) until one is free, so
// a burst of searches never delays the database answers. The application admits fewer searches
// than that at once: the rest of the pool waits for them within each request's budget.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace kalah {

struct HttpLimits {
  std::chrono::milliseconds request_timeout{10000};
  std::chrono::milliseconds write_timeout{10000};
  size_t header_bytes = 16 << 10;
  size_t body_bytes = 16 << 10;
  size_t max_connections = 1024;  // more are closed as soon as accepted
  int fast_threads = 2;
  int search_threads = 2;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

// A request's client, as the work answering it sees it. While the answer is worked out a client
// sends nothing (browsers do not pipeline), so its connection turning readable then means it
// closed it (a page closed or reloaded, a fetch aborted): the server calls leave(), which runs
// what the work registered (stopping its search). Thread-safe.
class ClientLink {
 public:
  // `f` runs when the client leaves, at once if it has; until forget().
  void on_leave(std::function<void()> f);
  void forget();
  void leave();

 private:
  std::mutex mutex_;
  bool gone_ = false;
  std::function<void()> on_leave_;
};

// What the server asks of its application, for a GET of `target` (path and query, as sent):
// `route` runs on the I/O thread and must be quick: it answers at once (a page, an error), or
// says which pool runs `work` for the answer.
enum class Pool { kNone, kFast, kSearch };
struct Routed {
  Pool pool = Pool::kNone;
  HttpResponse now;  // when pool is kNone
  // Else; exceptions become 500 with their message.
  std::function<HttpResponse(ClientLink& client)> work;
};
using Router = std::function<Routed(const std::string& target)>;

class HttpServer {
 public:
  // Binds host:port (0: any free port); throws std::runtime_error naming them when it cannot.
  // `error_json` makes the body of an error the server answers itself (a limit, a method).
  HttpServer(const std::string& host, int port, const HttpLimits& limits, Router router,
             std::function<std::string(const std::string&)> error_json);
  ~HttpServer();
  int port() const;
  // Serves until SIGINT or SIGTERM (which are then handled here) or stop(); then `on_stop` runs
  // (to cut running work short), the pools finish what runs and the connections close.
  void run(const std::function<void()>& on_stop);
  // Ends run() from any thread.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The parameters of a query string ("a=1&b=x%2Cy"), percent-decoded ('+' is a space); throws
// std::invalid_argument naming a parameter given twice or a malformed escape.
std::map<std::string, std::string> query_parameters(const std::string& query);

}  // namespace kalah
