// kgp.h: lines of the Kalah Game Protocol (KGP 1.x, the spec of KWARC/kalah-game; docs/design.md
// §9): a command is "[id][@ref] name args...", an argument an integer, real, word, quoted string
// or board literal "<n,south store,north store,south pits...,north pits...>".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "game/any_board.h"

namespace kalah {

inline constexpr size_t kKgpMaxLine = 16384;  // the spec's bound, trailing white space included

struct KgpCommand {
  uint64_t id = 0, ref = 0;  // 0: none (the spec's IDs are positive)
  std::string name;
  std::vector<std::string> args;  // strings unquoted, everything else as written
};

// Throws std::invalid_argument naming what is malformed.
KgpCommand parse_kgp_line(const std::string& line);

// "move 3" with "@ref " before it when ref != 0 (and "id" before that when id != 0); strings
// are quoted by the caller.
std::string format_kgp(uint64_t ref, const std::string& name, const std::string& args = "",
                       uint64_t id = 0);
std::string kgp_quote(const std::string& s);

// A board literal as the side to move sees it: South, the client's side in freeplay. Pits of both
// rows in their owner's sowing order, as AnyBoard holds them. Throws std::invalid_argument.
struct KgpBoard {
  AnyBoard board;
  int south_store = 0, north_store = 0;
};
KgpBoard parse_kgp_board(const std::string& literal);
std::string format_kgp_board(const KgpBoard& b);

// Verify mode's `problem`: South sows `pit` (0-based, as the reference server go-kgp sends it),
// with KGP's rules; a game it ends has the seeds left collected into their owners' stores.
struct KgpSowing {
  KgpBoard board;
  bool repeat = false;  // the last seed fell in South's store: South moves again
};
// Throws std::invalid_argument when `pit` is not a legal move of `b`.
KgpSowing sow_kgp(const KgpBoard& b, int pit);
}  // namespace kalah
