// rules.cpp: sowing, captures and the variant spellings.
#include "solver/rules.h"

#include <array>
#include <cstring>
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

namespace {

// The board as one 128-bit number, pit i in bits 8i..8i+7. Sowing adds to it in registers: byte
// stores followed by a 16-byte load of the board cost a store-forwarding stall each, which was a
// quarter of the database builder's time.
using Wide = unsigned __int128;

Wide to_wide(const Board& b) {
  Wide w;
  std::memcpy(&w, b.pits.data(), sizeof w);
  return w;
}

Board from_wide(Wide w) {
  Board b;
  std::memcpy(b.pits.data(), &w, sizeof w);
  return b;
}

constexpr Wide byte_unit(int i) {
  return Wide{1} << (8 * i);
}
// The board with its rows swapped: the opponent's row becomes the mover's. In 64-bit halves,
// where every shift is shorter than a word (a variable 128-bit shift costs about seven
// instructions).
Board swap_rows(Wide w, int m) {
  const uint64_t lo = static_cast<uint64_t>(w), hi = static_cast<uint64_t>(w >> 64);
  if (m == 8) return from_wide(Wide{lo} << 64 | hi);
  const int bits = 8 * m;  // < 64: the mover's row is in lo, the opponent's from lo into hi
  const uint64_t row = (uint64_t{1} << bits) - 1;
  const uint64_t mover = lo & row;
  const uint64_t opponent = ((lo >> bits) | (hi << (64 - bits))) & row;
  return from_wide(Wide{mover >> (64 - bits)} << 64 | (opponent | mover << bits));
}

// What sowing k < 2m+1 seeds from pit p adds to the board: one look-up in place of a loop over
// the seeds (4 % of the instructions of Kalah(6,4)'s value search, callgrind).
struct Sowing {
  Wide add = 0;  // a seed in every pit passed
  uint8_t gain = 0;   // 1 if the store is passed
  uint8_t place = 0;  // where the last seed lands: cycle place, as in play()
};
using SowingsOfPit = std::array<Sowing, 2 * kMaxPits + 1>;
constexpr auto kSowings = [] {
  std::array<std::array<SowingsOfPit, kMaxPits>, kMaxPits + 1> table{};
  for (int m = 1; m <= kMaxPits; ++m)
    for (int pit = 0; pit < m; ++pit) {
      Sowing s;
      s.place = static_cast<uint8_t>(pit);
      table[m][pit][0] = s;
      for (int k = 1; k < 2 * m + 1; ++k) {
        s.place = static_cast<uint8_t>((s.place + 1) % (2 * m + 1));
        if (s.place == m)
          ++s.gain;
        else
          s.add += byte_unit(s.place < m ? s.place : s.place - 1);
        table[m][pit][k] = s;
      }
    }
  return table;
}();

// Every pit but pit i, as a mask: variable 128-bit shifts cost about seven instructions each.
constexpr auto kAllBut = [] {
  std::array<Wide, 2 * kMaxPits> masks{};
  for (int i = 0; i < 2 * kMaxPits; ++i) masks[i] = ~(Wide{0xFF} << (8 * i));
  return masks;
}();

}  // namespace

MoveResult play(const Rules& rules, const Board& b, int pit) {
  const int m = rules.pits;
  const int cycle = 2 * m + 1;  // places a seed can land: 2m pits and the mover's store
  MoveResult r;
  const int n = b.pits[pit];
  Wide w = to_wide(b) & kAllBut[pit];

  // Whole laps drop one seed everywhere, the origin pit included.
  int rest = n;
  if (n >= cycle) {
    const int laps = n / cycle;
    Wide ones = 0;
    for (int i = 0; i < 2 * m; ++i) ones |= byte_unit(i);
    w += ones * static_cast<unsigned>(laps);
    r.gain = laps;
    rest = n - laps * cycle;
  }
  // Cycle place p: p < m is mover pit p, p == m the store, p > m opponent pit p-1.
  const Sowing& sowing = kSowings[m][pit][rest];
  w += sowing.add;
  r.gain += sowing.gain;
  const int place = sowing.place;

  if (place == m) {
    r.extra_turn = true;
    r.board = from_wide(w);
    return r;
  }
  // Last seed in a mover pit that was empty (it now holds just that seed): a capture. The pits
  // are read from memory (a byte loaded from a wide store forwards; the reverse would stall).
  uint8_t pits[2 * kMaxPits];
  std::memcpy(pits, &w, sizeof pits);
  if (place < m && pits[place] == 1) {
    const int opposite = 2 * m - 1 - place;
    const int captured = pits[opposite];
    if (captured > 0 || rules.capture == Capture::kEmpty) {
      r.gain += 1 + captured;
      w &= kAllBut[place] & kAllBut[opposite];
      r.capture = true;
    }
  }
  r.board = swap_rows(w, m);
  return r;
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
