// rules.cpp: the variant spellings and whole-position moves (play() is inline in rules.h).
#include "game/rules.h"

#include <stdexcept>

namespace kalah {

void validate(const Rules& rules) {
  if (rules.pits < 1 || rules.pits > kMaxPits)
    throw std::invalid_argument("pits per row must be 1.." + std::to_string(kMaxPits) + ", got " +
                                std::to_string(rules.pits));
}

std::string to_string(Capture c) {
  return c == Capture::kStandard ? "standard" : "empty";
}
std::string to_string(End e) {
  return e == End::kImmediate ? "immediate" : "on-turn";
}
std::string to_string(Remainder r) {
  return r == Remainder::kOwner ? "owner" : "discard";
}

std::string describe(const Rules& rules) {
  return "capture=" + to_string(rules.capture) + " end=" + to_string(rules.end) +
         " remainder=" + to_string(rules.remainder);
}

std::string variant_name(const Rules& r) {
  return "kalah-m" + std::to_string(r.pits) + "-" + to_string(r.capture) + "-" + to_string(r.end) +
         "-" + to_string(r.remainder);
}

Capture parse_capture(const std::string& s) {
  if (s == "standard") return Capture::kStandard;
  if (s == "empty") return Capture::kEmpty;
  throw std::invalid_argument("'" + s + "' is not a capture rule (standard or empty)");
}

End parse_end(const std::string& s) {
  if (s == "immediate") return End::kImmediate;
  if (s == "on-turn") return End::kOnTurn;
  throw std::invalid_argument("'" + s + "' is not an end rule (immediate or on-turn)");
}

Remainder parse_remainder(const std::string& s) {
  if (s == "owner") return Remainder::kOwner;
  if (s == "discard") return Remainder::kDiscard;
  throw std::invalid_argument("'" + s + "' is not a remainder rule (owner or discard)");
}

Board flipped(const Board& b, int m) {
  Board f;
  for (int i = 0; i < 2 * m; ++i) f.pits[i] = b.pits[i < m ? i + m : i - m];
  return f;
}

Board start_board(int m, int n) {
  Board b;
  for (int i = 0; i < 2 * m; ++i) b.pits[i] = static_cast<uint8_t>(n);
  return b;
}

Position apply(const Rules& rules, const Position& p, int pit, MoveResult* result) {
  const MoveResult r = play(rules, p.board, pit);
  if (result) *result = r;
  Position q;
  q.board = r.board;
  if (r.extra_turn) {
    q.mover_store = p.mover_store + r.gain;
    q.opponent_store = p.opponent_store;
    q.mover = p.mover;
  } else {
    q.mover_store = p.opponent_store;
    q.opponent_store = p.mover_store + r.gain;
    q.mover = other(p.mover);
  }
  return q;
}

}  // namespace kalah
