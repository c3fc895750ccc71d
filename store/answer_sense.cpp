// answer_sense.cpp: an answer record's moves read back and checked (store/answer_sense.h).
#include "store/answer_sense.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "game/notation.h"

namespace kalah {
namespace {

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

bool read_moves(const Rules& rules, const std::string& moves, const std::string& line,
                Analysis& a) {
  try {
    for (const std::string& w : words(moves)) {
      const size_t c1 = w.find(':'), c2 = w.find(':', c1 + 1);
      if (c2 == std::string::npos) return false;
      const auto pit = parse_whole_number(w.substr(0, c1), 1, rules.pits);
      const auto v =
          parse_whole_number(w.substr(c1 + 1, c2 - c1 - 1), -kMaxPositionSeeds, kMaxPositionSeeds);
      if (!pit || !v) return false;
      a.moves.push_back({static_cast<int>(*pit - 1), static_cast<int>(*v),
                         parse_turn(w.substr(c2 + 1), rules.pits)});
    }
    for (const std::string& w : words(line)) a.best_line.push_back(parse_turn(w, rules.pits));
  } catch (const std::invalid_argument&) {
    return false;
  }
  return true;
}

std::string nonsense(const Rules& rules, const Position& p, const Analysis& a) {
  const int stores = p.mover_store - p.opponent_store, s = seeds(p.board);
  if (a.value != stores + a.board_value) return "its value is not the stores plus the board's";
  if (a.finished != is_terminal(rules, p.board)) return "it says the game is over wrongly";
  if (a.finished)
    return a.board_value == terminal_value(rules, p.board) && a.moves.empty()
               ? ""
               : "a finished game's value is wrong";
  size_t k = 0;
  int best = stores - s - 1;
  for (int pit = 0; pit < rules.pits; ++pit) {
    if (!p.board.pits[pit]) continue;
    if (k >= a.moves.size() || a.moves[k].pit != pit) return "its moves are not the legal ones";
    const MoveReport& m = a.moves[k++];
    if (m.turn.empty() || m.turn[0] != pit) return "a move's turn starts elsewhere";
    if (m.value < stores - s || m.value > stores + s)
      return "a move's value is beyond the seeds in play";
    best = std::max(best, m.value);
  }
  if (k != a.moves.size()) return "its moves are not the legal ones";
  if (best != a.value) return "its value is not its best move's";
  const auto first = std::find_if(a.moves.begin(), a.moves.end(), [&](const MoveReport& m) {
    return !a.best_line.empty() && m.turn == a.best_line[0];
  });
  if (first == a.moves.end() || first->value != a.value)
    return "its best line does not start with a best move";
  return "";
}

}  // namespace kalah
