// game_record.cpp: reading, writing and replaying game records.
#include "game/game_record.h"

#include <stdexcept>

#include "game/notation.h"

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
    s += format_turn(t.pits, t.side);
  }
  return s;
}

TurnPlayed play_turn(const Rules& rules, Position p, const std::vector<int>& pits) {
  for (size_t i = 0; i < pits.size(); ++i) {
    if (is_terminal(rules, p.board)) return {p, i, i ? TurnFault::kEnded : TurnFault::kOver};
    if (p.board.pits[pits[i]] == 0) return {p, i, TurnFault::kEmpty};
    MoveResult r;
    p = apply(rules, p, pits[i], &r);
    if (i + 1 < pits.size() && !r.extra_turn) return {p, i + 1, TurnFault::kEnded};
  }
  return {p, pits.size(), TurnFault::kNone};
}

Position replay(const Rules& rules, Position p, const std::vector<Turn>& turns) {
  for (size_t t = 0; t < turns.size(); ++t) {
    const Turn& turn = turns[t];
    if (turn.pits.empty()) continue;
    const auto where = [&](size_t at) {
      return "game record, turn " + std::to_string(t + 1) + " (" + format_record({turn}) +
             "), pit " + std::to_string(turn.pits[at] + 1) + ": ";
    };
    if (turn.side != p.mover && !is_terminal(rules, p.board))
      throw std::invalid_argument(where(0) + side_name(p.mover) + " is to move, not " +
                                  side_name(turn.side));
    const TurnPlayed played = play_turn(rules, p, turn.pits);
    if (played.fault == TurnFault::kOver)
      throw std::invalid_argument(where(played.at) + "the game is already over");
    if (played.fault == TurnFault::kEmpty)
      throw std::invalid_argument(where(played.at) + "the pit is empty");
    if (played.fault == TurnFault::kEnded)
      throw std::invalid_argument(where(played.at) + "pit " +
                                  std::to_string(turn.pits[played.at - 1] + 1) + " ended the turn");
    p = played.position;
  }
  return p;
}

void record_ply(std::vector<Turn>& turns, Side side, int pit) {
  if (turns.empty() || turns.back().side != side) turns.push_back({side, {}});
  turns.back().pits.push_back(pit);
}

}  // namespace kalah
