// game_record.cpp: reading, writing and replaying game records.
#include "solver/game_record.h"

#include <stdexcept>

#include "solver/notation.h"

namespace kalah {

std::vector<Turn> parse_record(const std::string& text, int m) {
  if (text.size() > kMaxRecordLength)
    throw std::invalid_argument("game record of " + std::to_string(text.size()) +
                                " characters; at most " + std::to_string(kMaxRecordLength));
  std::vector<Turn> turns;
  size_t i = 0;
  while (true) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '+' || text[i] == '\t')) ++i;
    if (i == text.size()) break;
    size_t end = i;
    while (end < text.size() && text[end] != ' ' && text[end] != '+' && text[end] != '\t') ++end;
    const std::string token = text.substr(i, end - i);
    i = end;
    if (token.size() < 3 || (token[0] != 'S' && token[0] != 'N') || token[1] != ':')
      throw std::invalid_argument("game record: '" + printable_input(token, 40) +
                                  "' is not a turn like S:3-6 (a side, S or N, a colon, pits)");
    Turn turn;
    turn.side = token[0] == 'S' ? Side::kSouth : Side::kNorth;
    turn.pits = parse_turn(token.substr(2), m,
                           "game record, turn " + std::to_string(turns.size() + 1) + " (" +
                               printable_input(token, 40) + ")");
    turns.push_back(std::move(turn));
  }
  return turns;
}

std::string format_record(const std::vector<Turn>& turns) {
  std::string s;
  for (const Turn& t : turns) {
    if (!s.empty()) s += ' ';
    s += t.side == Side::kSouth ? "S:" : "N:";
    s += format_turn(t.pits);
  }
  return s;
}

Position replay(const Rules& rules, Position p, const std::vector<Turn>& turns) {
  for (size_t t = 0; t < turns.size(); ++t) {
    const Turn& turn = turns[t];
    for (int pit : turn.pits) {
      const std::string where = "game record, turn " + std::to_string(t + 1) + " (" +
                                format_record({turn}) + "), pit " + std::to_string(pit + 1) + ": ";
      if (is_terminal(rules, p.board))
        throw std::invalid_argument(where + "the game is already over");
      if (turn.side != p.mover)
        throw std::invalid_argument(where + side_name(p.mover) + " is to move, not " +
                                    side_name(turn.side));
      if (p.board.pits[pit] == 0) throw std::invalid_argument(where + "the pit is empty");
      p = apply(rules, p, pit);
    }
  }
  return p;
}

void record_ply(std::vector<Turn>& turns, Side side, int pit) {
  if (turns.empty() || turns.back().side != side) turns.push_back({side, {}});
  turns.back().pits.push_back(pit);
}

}  // namespace kalah
