// kgp_client.h: kalah as a client of a Kalah Game Protocol server (KGP 1.x, freeplay mode;
// docs/design.md §9): greets, then answers every board the server sends with kalah's moves.
#pragma once

#include <string>

#include "tools/game_options.h"

namespace kalah {

struct KgpOptions {
  std::string host = "localhost";
  int port = 2671;  // the port of the KGP reference server (go-kgp)
  double seconds = 5;
  std::string name = "kalah";
  std::string token;
  DatabaseOptions tables;  // of standard capture, KGP's rules
  int threads = 0;
};

// Connects and plays until the server's goodbye (exit status 0); throws std::runtime_error when
// the connection fails or ends without one.
int play_kgp(const KgpOptions& o);

}  // namespace kalah
