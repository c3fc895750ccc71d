// fuzz_position.cpp: libFuzzer target for the position, move and game-record parsers
// (game/notation.h, game/game_record.h).
// Any input either parses or is refused with std::invalid_argument; what parses formats back to
// text that parses to the same position, in both forms.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "game/game_record.h"
#include "game/notation.h"

using namespace kalah;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const ParsedPosition p = parse_position(text);
    const Position& pos = p.position;
    const ParsedPosition absolute = parse_position(format_absolute(pos, p.pits), p.pits);
    if (!(absolute.position == pos)) std::abort();
    const ParsedPosition relative = parse_position(format_relative(pos, p.pits), p.pits);
    if (!(relative.position.board == pos.board) ||
        relative.position.mover_store != pos.mover_store ||
        relative.position.opponent_store != pos.opponent_store)
      std::abort();
    draw(pos, p.pits);
  } catch (const std::invalid_argument&) {
  }
  try {
    const int m = 1 + static_cast<int>(size % kMaxPits);
    const std::vector<int> turn = parse_turn(text, m);
    if (parse_turn(format_turn(turn), m) != turn) std::abort();
  } catch (const std::invalid_argument&) {
  }
  try {  // a game record from the start of Kalah(m,3): replays, and round-trips through text
    const int m = 1 + static_cast<int>(size % kMaxPits);
    const std::vector<Turn> turns = parse_record(text, m);
    const Rules rules{m};
    const Position end = replay(rules, start_position(m, 3), turns);
    if (!(replay(rules, start_position(m, 3), parse_record(format_record(turns), m)) == end))
      std::abort();
  } catch (const std::invalid_argument&) {
  }
  if (printable_input(text).size() > 260) std::abort();  // 200 characters and the length note
  return 0;
}
