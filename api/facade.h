// facade.h: the conversions between the public API's types (include/kalah/kalah.h) and the
// library's, for api/kalah.cpp and api/position.cpp; not installed.
#pragma once

#include <cstring>
#include <stdexcept>

#include "db/layer_file.h"
#include "game/rules.h"
#include "kalah/kalah.h"

namespace kalah::api {

inline kalah::Rules internal_rules(const Rules& r) {
  kalah::Rules rules;
  rules.pits = r.pits;
  rules.capture = parse_capture(r.capture);
  rules.end = parse_end(r.end);
  rules.remainder = parse_remainder(r.remainder);
  validate(rules);
  return rules;
}

inline Rules public_rules(const kalah::Rules& r) {
  return {r.pits, to_string(r.capture), to_string(r.end), to_string(r.remainder)};
}

// A database error is a runtime_error whose type is private to the library.
template <class F>
auto rethrowing(F&& f) {
  try {
    return f();
  } catch (const FileError& e) {
    throw std::runtime_error(e.what());
  }
}

// Between Position and kalah::Position (the solver's), converted at each call: a copy of 16
// bytes and the rule codes, cheap next to text.
struct PositionAccess {
  static kalah::Rules rules(const Position& q) {
    return {q.pits_, static_cast<Capture>(q.rules_[0]), static_cast<End>(q.rules_[1]),
            static_cast<Remainder>(q.rules_[2])};
  }
  static kalah::Position internal(const Position& q) {
    kalah::Position p;
    std::memcpy(p.board.pits.data(), q.board_.pits, sizeof q.board_.pits);
    p.mover_store = q.stores_[0];
    p.opponent_store = q.stores_[1];
    p.mover = q.mover_ == 'S' ? Side::kSouth : Side::kNorth;
    return p;
  }
  static Position public_position(const kalah::Rules& rules, const kalah::Position& p) {
    Position q;
    q.pits_ = static_cast<uint8_t>(rules.pits);
    q.rules_[0] = static_cast<uint8_t>(rules.capture);
    q.rules_[1] = static_cast<uint8_t>(rules.end);
    q.rules_[2] = static_cast<uint8_t>(rules.remainder);
    std::memcpy(q.board_.pits, p.board.pits.data(), sizeof q.board_.pits);
    q.stores_[0] = p.mover_store;
    q.stores_[1] = p.opponent_store;
    q.mover_ = p.mover == Side::kSouth ? 'S' : 'N';
    return q;
  }
};

}  // namespace kalah::api
