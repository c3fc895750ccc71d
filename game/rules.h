// rules.h: the rules of Kalah(m,n) in all their variants, on boards seen from the player to move.
//
// A Board holds only the pits: the stores never influence future play (docs/design.md §3), so
// search and databases work on boards, and a Position adds the stores and the absolute side to move
// for display. Pits are indexed side-relative: [0, m) are the mover's pits in sowing order (0 is
// farthest from the mover's store), [m, 2m) the opponent's in the opponent's sowing order. The pit
// opposite mover pit i is 2m-1-i. Unused entries (index >= 2m) are always zero, so a Board
// compares, hashes and sums without knowing m.
//
// A move sows counter-clockwise through the mover's pits, the mover's store and the opponent's
// pits (the opponent's store is skipped): a cycle of 2m+1 places, origin pit included on laps.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace kalah {

inline constexpr int kMaxPits = 8;
// Seeds on a board are limited so that a database value (V+s)/2 fits in a byte (docs/design.md §3).
inline constexpr int kMaxBoardSeeds = 255;

enum class Capture : uint8_t { kStandard, kEmpty };
enum class End : uint8_t { kImmediate, kOnTurn };
enum class Remainder : uint8_t { kOwner, kDiscard };

struct Rules {
  int pits = 6;  // m, pits per row
  Capture capture = Capture::kStandard;
  End end = End::kImmediate;
  Remainder remainder = Remainder::kOwner;

  bool operator==(const Rules&) const = default;
};

// Throws std::invalid_argument naming the field when the rules are out of range.
void validate(const Rules& rules);

// "standard"/"empty", "immediate"/"on-turn", "owner"/"discard": the command-line spellings.
std::string to_string(Capture c);
std::string to_string(End e);
std::string to_string(Remainder r);
// e.g. "capture=empty end=immediate remainder=owner".
std::string describe(const Rules& rules);
// "kalah-m6-standard-immediate-owner": the variant's name in every file name kalah writes (layer
// files, the answer store's directories, checkpoints, fair logs, certificates).
std::string variant_name(const Rules& rules);
// Parsers for the spellings above; throw std::invalid_argument listing the accepted words.
Capture parse_capture(const std::string& s);
End parse_end(const std::string& s);
Remainder parse_remainder(const std::string& s);

struct Board {
  std::array<uint8_t, 2 * kMaxPits> pits{};

  // Two 8-byte words: the defaulted comparison became a call to memcmp, 12 % of a search.
  bool operator==(const Board& o) const {
    uint64_t a[2], b[2];
    std::memcpy(a, pits.data(), sizeof a);
    std::memcpy(b, o.pits.data(), sizeof b);
    return ((a[0] ^ b[0]) | (a[1] ^ b[1])) == 0;
  }
};
static_assert(sizeof(Board) == 16);

// A hash of the pits, for hash maps of boards (a table's buckets have their own).
struct BoardHash {
  size_t operator()(const Board& b) const {
    uint64_t w[2];
    std::memcpy(w, b.pits.data(), sizeof w);
    const uint64_t h = (w[0] ^ (w[1] * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
  }
};

inline int row_seeds(const Board& b, int first, int count) {
  int sum = 0;
  for (int i = 0; i < count; ++i) sum += b.pits[first + i];
  return sum;
}
// A row's seeds from one 8-byte load: the bytes summed by a multiplication, exact because a board
// holds at most kMaxBoardSeeds (255) seeds. (A loop over the pits: 30 % of the instructions of
// Kalah(6,4)'s value search, callgrind.)
inline int row_sum(const Board& b, int first, int m) {
  uint64_t row;
  std::memcpy(&row, b.pits.data() + first, sizeof row);  // first + 8 <= 16 for rows of m <= 8
  if (m < 8) row &= (uint64_t{1} << (8 * m)) - 1;
  return static_cast<int>((row * 0x0101010101010101ull) >> 56);
}
inline int mover_seeds(const Board& b, int m) {
  return row_sum(b, 0, m);
}
inline int opponent_seeds(const Board& b, int m) {
  return row_sum(b, m, m);
}
inline int seeds(const Board& b) {
  uint64_t half[2];
  std::memcpy(half, b.pits.data(), sizeof half);
  // Byte by byte, the halves add without carries: a board holds at most 255 seeds.
  return static_cast<int>(((half[0] + half[1]) * 0x0101010101010101ull) >> 56);
}

// The same board seen from the other player.
Board flipped(const Board& b, int m);

// A row of m pits packed as m bytes of a little-endian word (pit i in bits 8i..8i+7).
inline uint64_t pack_row(const uint8_t* row, int m) {
  uint64_t packed = 0;
  for (int pit = m - 1; pit >= 0; --pit) packed = (packed << 8) | row[pit];
  return packed;
}

// The board with these packed rows (pack_row). Built in registers and stored at once: hot loops
// that fill a board byte by byte and then read it whole pay a store-forwarding stall.
inline Board board_of_rows(uint64_t mover, uint64_t opponent, int m) {
  const unsigned __int128 w = mover | (static_cast<unsigned __int128>(opponent) << (8 * m));
  Board b;
  std::memcpy(b.pits.data(), &w, sizeof w);
  return b;
}

// The start board of Kalah(m,n).
Board start_board(int m, int n);

// Whether the game is over for a mover with `mover` seeds in their row against `opponent` in the
// other: under End::kImmediate when either row is empty, under End::kOnTurn when the mover's is.
inline bool is_terminal(const Rules& rules, int mover, int opponent) {
  return mover == 0 || (rules.end == End::kImmediate && opponent == 0);
}
// Whether the row of m pits from `first` is empty: one load, no sum.
inline bool row_empty(const Board& b, int first, int m) {
  uint64_t row;
  std::memcpy(&row, b.pits.data() + first, sizeof row);  // first + 8 <= 16 for rows of m <= 8
  if (m < 8) row &= (uint64_t{1} << (8 * m)) - 1;
  return row == 0;
}
inline bool is_terminal(const Rules& rules, const Board& b) {
  return row_empty(b, 0, rules.pits) ||
         (rules.end == End::kImmediate && row_empty(b, rules.pits, rules.pits));
}

// V of a finished board: what the remainder rule adds to the mover minus the opponent.
inline int terminal_value(const Rules& rules, int mover, int opponent) {
  return rules.remainder == Remainder::kDiscard ? 0 : mover - opponent;
}
inline int terminal_value(const Rules& rules, const Board& b) {
  return terminal_value(rules, mover_seeds(b, rules.pits), opponent_seeds(b, rules.pits));
}

struct MoveResult {
  // The board after the move, seen from whoever moves next: the same player after an extra
  // turn, otherwise flipped to the opponent.
  Board board;
  int gain = 0;  // seeds added to the mover's store (sowing and capture)
  bool extra_turn = false;
  bool capture = false;
};

namespace detail {

// The board as one 128-bit number, pit i in bits 8i..8i+7. Sowing adds to it in registers: byte
// stores followed by a 16-byte load of the board cost a store-forwarding stall each, which was a
// quarter of the database builder's time.
using Wide = unsigned __int128;

inline Wide to_wide(const Board& b) {
  Wide w;
  std::memcpy(&w, b.pits.data(), sizeof w);
  return w;
}

inline Board from_wide(Wide w) {
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
inline Board swap_rows(Wide w, int m) {
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
  Wide add = 0;       // a seed in every pit passed
  uint8_t gain = 0;   // 1 if the store is passed
  uint8_t place = 0;  // where the last seed lands: cycle place, as in play()
};
using SowingsOfPit = std::array<Sowing, 2 * kMaxPits + 1>;
inline constexpr auto kSowings = [] {
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
inline constexpr auto kAllBut = [] {
  std::array<Wide, 2 * kMaxPits> masks{};
  for (int i = 0; i < 2 * kMaxPits; ++i) masks[i] = ~(Wide{0xFF} << (8 * i));
  return masks;
}();

}  // namespace detail

// Plays the mover's pit `pit` (0-based, must be non-empty). No allocation, no loop over the seeds:
// this is the inner loop of search, inline (the call was 5 % of its instructions). (The builder
// sows through row tables instead, retrograde/row_moves.h, and plays only the sowings that come
// back to the mover's row.)
inline MoveResult play(const Rules& rules, const Board& b, int pit) {
  using namespace detail;
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

// One row's share of Φ (docs/design.md §4).
inline int row_potential(const uint8_t* row, int m) {
  int phi = 0;
  for (int i = 0; i < m; ++i) phi += (i + 1) * row[i];
  return phi;
}
// Φ of docs/design.md §4: seeds weighted by their distance from their owner's far end, over both
// rows. Every move that keeps the seeds on the board strictly increases it, so play is acyclic.
inline int potential(const Board& b, int m) {
  return row_potential(&b.pits[0], m) + row_potential(&b.pits[m], m);
}

// A board with stores and the absolute side to move: what a user types and sees.
enum class Side : uint8_t { kSouth, kNorth };
inline Side other(Side s) {
  return s == Side::kSouth ? Side::kNorth : Side::kSouth;
}

struct Position {
  Board board;
  int mover_store = 0;
  int opponent_store = 0;
  Side mover = Side::kSouth;

  bool operator==(const Position&) const = default;
};

// Plays a move on a position: stores and side to move follow the board.
Position apply(const Rules& rules, const Position& p, int pit, MoveResult* result = nullptr);

// Final margin for the mover of `p` given the board's V: the stores plus what is still to come.
inline int final_margin(const Position& p, int board_value) {
  return p.mover_store - p.opponent_store + board_value;
}

}  // namespace kalah
