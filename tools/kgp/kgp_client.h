// kgp_client.h: kalah as a client of a Kalah Game Protocol server (KGP 1.x; docs/design.md §9):
// greets, then answers every board the server sends with kalah's moves (freeplay mode), or
// every problem with its solution (verify mode).
#pragma once

#include <string>

#include "query/opened_database.h"

namespace kalah {

struct KgpOptions {
  std::string host = "localhost";
  int port = 2671;  // the port of the KGP reference server (go-kgp)
  // A margin under go-kgp's default timeout of 5 s, counted from when it sends the board.
  double seconds = 4;
  bool verify = false;  // verify mode: answer the server's `problem`s instead of playing
  int problems = 0;     // verify mode: say goodbye after this many answers (0: never)
  std::string name = "kalah";
  std::string token;
  DatabaseOptions database;  // of standard capture, KGP's rules
  int threads = 0;
};

enum class KgpResult {
  kDone,   // the server's goodbye, or in verify mode every answer judged right
  kWrong,  // verify mode: an answer was judged wrong
};
// Connects and plays until the server's goodbye, or in verify mode until `problems` answers were
// judged; throws std::runtime_error when the connection fails or ends without one.
KgpResult play_kgp(const KgpOptions& o);

}  // namespace kalah
