// kgp_connection.h: a Kalah Game Protocol client's TCP connection (Boost.Asio): lines in, lines
// out (tools/kgp/kgp.h reads and writes them).
#pragma once

#include <memory>
#include <string>

namespace kalah {

class KgpConnection {
 public:
  // Throws std::runtime_error naming the host and port when it cannot connect.
  KgpConnection(const std::string& host, int port);
  ~KgpConnection();

  // One line from the server without its line end; false at the end of the connection. A line
  // over the spec's bound comes back cut to one character over it, for parse_kgp_line to refuse.
  // For one reading thread.
  bool read_line(std::string& line);
  // Thread-safe, and may run while the reader waits; a failed send (the server went away) is
  // seen by the reader.
  void send(const std::string& text);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kalah
