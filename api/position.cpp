// position.cpp: the public API's Position (include/kalah/kalah.h): playing games through.
#include "api/facade.h"
#include "game/notation.h"

namespace kalah::api {

Position Position::start(const Rules& rules, int seeds) {
  const kalah::Rules r = internal_rules(rules);
  return PositionAccess::public_position(r, start_position(r.pits, seeds));
}

Position Position::parse(const std::string& text, const Rules& rules) {
  if (rules.pits != 0) internal_rules(rules);
  const ParsedPosition parsed = parse_position(text, rules.pits);
  Rules with_pits = rules;
  with_pits.pits = parsed.pits;
  return PositionAccess::public_position(internal_rules(with_pits), parsed.position);
}

Rules Position::rules() const {
  return public_rules(PositionAccess::rules(*this));
}

std::vector<int> Position::legal_moves() const {
  std::vector<int> moves;
  if (is_over()) return moves;
  for (int pit = 0; pit < pits_; ++pit)
    if (board_.pits[pit]) moves.push_back(pit + 1);
  return moves;
}

Position Position::play(int pit) const {
  if (is_over()) throw std::invalid_argument("the game is over: no move is legal");
  if (pit < 1 || pit > pits_ || !board_.pits[pit - 1])
    throw std::invalid_argument("pit " + std::to_string(pit) + " is not a legal move of " + str() +
                                " (pits 1.." + std::to_string(pits_) +
                                " in sowing order, with seeds)");
  const kalah::Rules r = PositionAccess::rules(*this);
  return PositionAccess::public_position(r, apply(r, PositionAccess::internal(*this), pit - 1));
}

bool Position::is_over() const {
  return is_terminal(PositionAccess::rules(*this), PositionAccess::internal(*this).board);
}

int Position::score() const {
  const kalah::Rules r = PositionAccess::rules(*this);
  const kalah::Position p = PositionAccess::internal(*this);
  return final_margin(p, is_terminal(r, p.board) ? terminal_value(r, p.board) : 0);
}

std::string Position::str() const {
  return format_relative(PositionAccess::internal(*this), pits_);
}

std::string Position::absolute() const {
  return format_absolute(PositionAccess::internal(*this), pits_);
}

}  // namespace kalah::api
