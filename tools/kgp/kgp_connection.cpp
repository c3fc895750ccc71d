// kgp_connection.cpp: the connection of kgp_connection.h over Asio's synchronous socket calls:
// one thread reads, the workers write under a mutex (Asio's synchronous send and receive on one
// socket may run at the same time: each is one system call on the descriptor).
#include "tools/kgp/kgp_connection.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <mutex>
#include <stdexcept>

#include "tools/kgp/kgp.h"

namespace kalah {

namespace asio = boost::asio;
using asio::ip::tcp;

struct KgpConnection::Impl {
  asio::io_context io;
  tcp::socket socket{io};
  std::string buffer;
  std::mutex sending;
};

KgpConnection::KgpConnection(const std::string& host, int port) : impl_(std::make_unique<Impl>()) {
  boost::system::error_code error;
  tcp::resolver resolver(impl_->io);
  const auto found = resolver.resolve(host, std::to_string(port), error);
  if (error) throw std::runtime_error("cannot find " + host + ": " + error.message());
  asio::connect(impl_->socket, found, error);
  if (error)
    throw std::runtime_error("cannot connect to " + host + ":" + std::to_string(port) + ": " +
                             error.message());
  // Each line is a whole message: sent at once, not held back to coalesce with the next (Nagle's
  // wait for the server's delayed acknowledgement cost 40 ms a reply).
  impl_->socket.set_option(tcp::no_delay(true), error);
}

KgpConnection::~KgpConnection() = default;

bool KgpConnection::read_line(std::string& line) {
  std::string& buffer = impl_->buffer;
  bool overlong = false;
  for (;;) {
    const size_t end = buffer.find('\n');
    if (end != std::string::npos) {
      if (!overlong) line = buffer.substr(0, end > 0 && buffer[end - 1] == '\r' ? end - 1 : end);
      buffer.erase(0, end + 1);
      return true;
    }
    if (!overlong && buffer.size() > kKgpMaxLine) {
      overlong = true;
      line = buffer.substr(0, kKgpMaxLine + 1);
    }
    if (overlong) buffer.clear();
    char chunk[4096];
    boost::system::error_code error;
    const size_t n = impl_->socket.read_some(asio::buffer(chunk), error);
    if (error) return false;  // the end of the connection, or a broken one
    buffer.append(chunk, n);
  }
}

void KgpConnection::send(const std::string& text) {
  std::lock_guard lock(impl_->sending);
  boost::system::error_code ignored;  // the reader sees the connection end
  asio::write(impl_->socket, asio::buffer(text), ignored);
}

}  // namespace kalah
