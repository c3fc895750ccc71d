// http_server.cpp: sessions on one I/O thread, answers on two pools (tools/server/http_server.h).
#include "tools/server/http_server.h"

// clang-format off
// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility> (GCC 12).
#include <utility>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
// clang-format on

#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <optional>
#include <stdexcept>

namespace kalah {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// What every session shares. Members are destroyed in reverse: the I/O context (and the sessions
// its pending handlers hold) before the connection count they decrement.
struct Shared {
  Shared(const HttpLimits& l, Router r, std::function<std::string(const std::string&)> e)
      : limits(l), router(std::move(r)), error(std::move(e)) {}
  const HttpLimits limits;
  const Router router;
  const std::function<std::string(const std::string&)> error;  // the JSON of an error message
  std::atomic<size_t> connections{0};
  net::io_context io{1};
  net::thread_pool fast{static_cast<size_t>(limits.fast_threads)};
  net::thread_pool search{static_cast<size_t>(limits.search_threads)};
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, Shared& shared)
      : stream_(std::move(socket)),
        buffer_(shared.limits.header_bytes + shared.limits.body_bytes + 8192),
        shared_(shared) {
    ++shared_.connections;
  }
  ~Session() { --shared_.connections; }
  void start() { read(); }

 private:
  // One request, whole, within the request timeout (idle time before it included).
  void read() {
    parser_.emplace();
    parser_->header_limit(static_cast<uint32_t>(shared_.limits.header_bytes));
    parser_->body_limit(shared_.limits.body_bytes);
    stream_.expires_after(shared_.limits.request_timeout);
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    stream_.expires_never();  // while the answer is worked out; the write sets its own
    if (ec == http::error::header_limit)
      return fail(431, "request line and headers over " +
                           std::to_string(shared_.limits.header_bytes) + " bytes");
    if (ec == http::error::body_limit)
      return fail(413, "request body over " + std::to_string(shared_.limits.body_bytes) + " bytes");
    if (ec) return close();  // closed, timed out or malformed: nothing to answer
    const auto& request = parser_->get();
    keep_alive_ = request.keep_alive();
    if (request.method() != http::verb::get)
      return write({405, "application/json",
                    shared_.error("method " + std::string(request.method_string()) +
                                  " not allowed: only GET")});
    Routed routed;
    try {
      routed = shared_.router(std::string(request.target()));
    } catch (const std::exception& e) {
      routed.now = {500, "application/json", shared_.error(e.what())};
    }
    if (routed.pool == Pool::kNone) return write(std::move(routed.now));
    client_ = std::make_unique<ClientLink>();  // a new one: a late leave() reaches no new work
    watch_client();
    net::post(routed.pool == Pool::kFast ? shared_.fast : shared_.search,
              [self = shared_from_this(), work = std::move(routed.work), &client = *client_] {
                HttpResponse response;
                try {
                  response = work(client);
                } catch (const std::exception& e) {
                  response = {500, "application/json", self->shared_.error(e.what())};
                }
                net::post(self->stream_.get_executor(),
                          [self, response = std::move(response)]() mutable {
                            self->write(std::move(response));
                          });
              });
  }

  // Calls client_->leave() if the connection closes before the answer is written (ClientLink).
  void watch_client() {
    stream_.socket().async_wait(
        tcp::socket::wait_read, [self = shared_from_this()](beast::error_code ec) {
          if (ec || !self->client_) return;  // cancelled: the answer is being written
          char byte;
          const ssize_t n =
              recv(self->stream_.socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
          if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
            return self->client_->leave();
          if (n < 0) self->watch_client();  // woken for nothing
          // n > 0: a pipelined request, read after this answer
        });
  }

  void fail(int status, const std::string& message) {
    keep_alive_ = false;
    write({status, "application/json", shared_.error(message)});
  }

  void write(HttpResponse r) {
    auto response = std::make_shared<http::response<http::string_body>>(
        static_cast<http::status>(r.status), 11);
    response->set(http::field::server, "kalah");
    response->set(http::field::content_type, r.content_type);
    if (r.status == 405) response->set(http::field::allow, "GET");
    response->keep_alive(keep_alive_);
    response->body() = std::move(r.body);
    response->prepare_payload();
    beast::error_code ignored;
    stream_.socket().cancel(ignored);  // watch_client's wait, if any
    stream_.expires_after(shared_.limits.write_timeout);
    http::async_write(stream_, *response,
                      [self = shared_from_this(), response](beast::error_code ec, size_t) {
                        if (ec || !self->keep_alive_) return self->close();
                        self->read();
                      });
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  // The client of the request being answered; the work holds it by reference (and the session).
  std::unique_ptr<ClientLink> client_;
  bool keep_alive_ = false;
  Shared& shared_;
};

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decoded(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] != '%') {
      out += s[i];
    } else {
      const int hi = i + 2 < s.size() ? hex_digit(s[i + 1]) : -1;
      const int lo = hi >= 0 ? hex_digit(s[i + 2]) : -1;
      if (lo < 0) throw std::invalid_argument("a malformed %-escape in the query");
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    }
  }
  return out;
}

}  // namespace

void ClientLink::on_leave(std::function<void()> f) {
  std::lock_guard lock(mutex_);
  on_leave_ = std::move(f);
  if (gone_) on_leave_();
}

void ClientLink::forget() {
  std::lock_guard lock(mutex_);
  on_leave_ = nullptr;
}

void ClientLink::leave() {
  std::lock_guard lock(mutex_);
  gone_ = true;
  if (on_leave_) on_leave_();
}

std::map<std::string, std::string> query_parameters(const std::string& query) {
  std::map<std::string, std::string> out;
  size_t start = 0;
  while (start <= query.size()) {
    const size_t end = std::min(query.find('&', start), query.size());
    const std::string pair = query.substr(start, end - start);
    start = end + 1;
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    const std::string name = percent_decoded(pair.substr(0, eq));
    const std::string value = eq == std::string::npos ? "" : percent_decoded(pair.substr(eq + 1));
    if (!out.emplace(name, value).second)
      throw std::invalid_argument("parameter '" + name + "' given twice");
  }
  return out;
}

struct HttpServer::Impl {
  Impl(const HttpLimits& limits, Router router, std::function<std::string(const std::string&)> e)
      : shared(limits, std::move(router), std::move(e)) {}
  Shared shared;
  tcp::acceptor acceptor{shared.io};
  net::signal_set signals{shared.io, SIGINT, SIGTERM};

  void accept() {
    acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (!acceptor.is_open()) return;
      if (!ec) {
        if (shared.connections < shared.limits.max_connections)
          std::make_shared<Session>(std::move(socket), shared)->start();
        // else the socket closes here: the client sees its connection refused
      }
      accept();
    });
  }
};

HttpServer::HttpServer(const std::string& host, int port, const HttpLimits& limits, Router router,
                       std::function<std::string(const std::string&)> error_json)
    : impl_(std::make_unique<Impl>(limits, std::move(router), std::move(error_json))) {
  beast::error_code ec;
  tcp::resolver resolver(impl_->shared.io);
  const auto endpoints = resolver.resolve(host, std::to_string(port), ec);
  tcp::acceptor& a = impl_->acceptor;
  if (!ec && !endpoints.empty()) {
    const tcp::endpoint at = endpoints.begin()->endpoint();
    a.open(at.protocol(), ec);
    if (!ec) a.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) a.bind(at, ec);
    if (!ec) a.listen(net::socket_base::max_listen_connections, ec);
  }
  if (ec || endpoints.empty())
    throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(port) +
                             (ec ? ": " + ec.message() : std::string(": no such address")));
}

HttpServer::~HttpServer() = default;

int HttpServer::port() const {
  return impl_->acceptor.local_endpoint().port();
}

void HttpServer::run(const std::function<void()>& on_stop) {
  impl_->signals.async_wait([this](beast::error_code ec, int) {
    if (!ec) stop();
  });
  impl_->accept();
  impl_->shared.io.run();
  on_stop();
  impl_->shared.fast.stop();  // queued answers are dropped with their connections
  impl_->shared.search.stop();
  impl_->shared.fast.join();
  impl_->shared.search.join();
}

void HttpServer::stop() {
  net::post(impl_->shared.io, [this] {
    beast::error_code ec;
    impl_->acceptor.close(ec);
    impl_->signals.cancel(ec);
    impl_->shared.io.stop();
  });
}

}  // namespace kalah
