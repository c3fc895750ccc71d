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
inline bool is_terminal(const Rules& rules, const Board& b) {
  return is_terminal(rules, mover_seeds(b, rules.pits), opponent_seeds(b, rules.pits));
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

// Plays the mover's pit `pit` (0-based, must be non-empty). No allocation, no branches on m
// beyond the loop bounds: this is the inner loop of search. (The builder sows through row
// tables instead, db/row_moves.h, and plays only the sowings that come back to the mover's row.)
MoveResult play(const Rules& rules, const Board& b, int pit);

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
