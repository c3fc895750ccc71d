// notation.h: reading and writing positions and moves as text (docs/design.md §2).
//
// Two position forms are read:
//   side-relative  "A/B[/x,y]", e.g. "4,4,4,4,4,4/4,4,4,4,4,4/0,0": the mover's pits, the
//                  opponent's pits (each in its owner's sowing order), then the mover's and the
//                  opponent's stores;
//   absolute       2m+2 bins counter-clockwise (South pits, South store, North pits, North store)
//                  and the side to move, S or N, first or last: "4,4,4,0,4,4,4,0,S" or "N:...".
// Moves are pit numbers 1..m in the mover's sowing order; a turn with extra moves is "3-6-1".
// Every parse error is a std::invalid_argument whose one-line message names what is wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "game/rules.h"

namespace kalah {

inline constexpr int kMaxPositionSeeds = kMaxBoardSeeds;  // pits and stores together
// Longer text is refused before it is split: no position needs more than a few dozen characters.
inline constexpr size_t kMaxPositionLength = 1000;

// The start position of Kalah(m, seeds): throws std::invalid_argument unless seeds is 1..the
// most that fits kMaxPositionSeeds ("seeds must be 1..N for M pits ..., got S").
Position start_position(int m, int seeds);

struct ParsedPosition {
  int pits = 0;  // m, read off the text
  Position position;
};

// Parses either form. `expected_pits` > 0 requires that many pits per row.
ParsedPosition parse_position(const std::string& text, int expected_pits = 0);

std::string format_relative(const Position& p, int m);  // "4,4,4/4,4,4/0,0"
std::string format_absolute(const Position& p, int m);  // "4,4,4,0,4,4,4,0,S"

// A turn: 0-based pits, each but the last earning an extra turn. Text is 1-based, dash-separated.
// An error names `context`, by default "move '<text>'".
std::vector<int> parse_turn(const std::string& text, int m, const std::string& context = "");
std::string format_turn(const std::vector<int>& pits);
// "S:3-6": a turn with its side, as game records write it (game/game_record.h).
std::string format_turn(const std::vector<int>& pits, Side side);
// Each turn of a line (a best line, an estimate's) with its side, `first` playing the first:
// "S:3-6", "N:2", ... Every line kalah writes (JSON, the library, Python, the command line, the
// board) is so, and --moves and ?moves= read it back.
std::vector<std::string> format_turns(const std::vector<std::vector<int>>& turns, Side first);

// A small board drawing (several lines, newline-terminated): the opponent's row on top with their
// store on the left, the mover's row below with their store on the right, pits numbered.
std::string draw(const Position& p, int m);
// The same seen from `below`'s side (their row at the bottom, their store on the right), the rows
// labelled by the caller.
std::string draw(const Position& p, int m, Side below, const std::string& top_label,
                 const std::string& bottom_label);

// Input as it may be echoed in a one-line message: control characters and bytes that are not
// well-formed UTF-8 escaped (\n, \xNN), cut once about `max_chars` bytes are shown (never
// inside a character), with the full length said.
std::string printable_input(const std::string& text, size_t max_chars = 200);

// "+2", "0", "-4": a margin as answers print it.
std::string signed_number(int v);

// A whole number written in decimal digits alone ('-' first for a negative one; no spaces,
// '+' or other characters) that lies in lo..hi; nothing otherwise. The one reader of numbers in
// text that kalah itself did not format: URL parameters, file names, store records.
std::optional<int64_t> parse_whole_number(std::string_view text, int64_t lo, int64_t hi);

inline const char* side_name(Side s) {
  return s == Side::kSouth ? "South" : "North";
}

}  // namespace kalah
