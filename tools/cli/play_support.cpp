// play_support.cpp: `kalah play`'s levels, coach and replay command (tools/cli/play_support.h).
#include "tools/cli/play_support.h"

#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "base/deadline.h"
#include "tools/cli/cli.h"

namespace kalah {

const Level& parse_level(const std::string& name) {
  try {
    return level_named(name);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--level: ") + e.what());
  }
}

Valued value_within(const Query& base, const Position& p, double seconds) {
  Query q = base;
  q.position = p;
  q.ask = Ask::kValue;
  q.estimate = true;
  q.deadline = seconds_from_now(seconds);
  const Outcome o = run(q);
  if (o.complete()) return {o.margin.lower, true};
  if (o.estimate) return {o.estimate->value, false};
  return {(o.margin.lower + o.margin.upper) / 2, false};  // no estimate yet: the bounds' middle
}

Valued stored_move_value(const Query& base, const Position& p, int pit) {
  Query q = base;
  q.position = p;
  Outcome o;
  if (from_tables(q, o))
    for (const MoveReport& m : o.analysis->moves)
      if (m.pit == pit) return {m.value, true};
  return {};
}

std::string verdict(Side side, const MoveChoice& c, double seconds) {
  std::ostringstream out;
  if (c.proven) {
    out << "best play: " << side_name(side) << " ";
    if (c.value == 0)
      out << "draws";
    else
      out << (c.value > 0 ? "wins" : "loses") << " by " << std::abs(c.value);
    out << (c.source == Source::kDatabase ? ", proven by the database" : ", proven");
  } else {
    out << "not proven in " << seconds << " s: the best of a " << c.depth
        << "-ply search, estimated " << signed_number(c.value) << " for " << side_name(side);
  }
  return out.str();
}

std::string level_note(const Level& level, const MoveChoice& c) {
  const int below = *c.best - c.value;
  return std::string(level.name) + ": a move within " + std::to_string(level.within) +
         " seeds of the best, " + (below ? std::to_string(below) + " below it" : "the best") +
         (c.proven ? ", proven" : ", estimated");
}

std::string replay_command(bool given_position, const Game& g, const std::vector<Turn>& record) {
  std::string c = "kalah solve";
  if (given_position)
    c += " --position " + format_absolute(g.start, g.rules.pits);
  else
    c += " --pits " + std::to_string(g.rules.pits) + " --seeds " +
         std::to_string(g.start.board.pits[0]);
  const Rules standard{g.rules.pits};
  if (g.rules.capture != standard.capture) c += " --capture " + to_string(g.rules.capture);
  if (g.rules.end != standard.end) c += " --end " + to_string(g.rules.end);
  if (g.rules.remainder != standard.remainder) c += " --remainder " + to_string(g.rules.remainder);
  return c + " --moves '" + format_record(record) + "'";
}

}  // namespace kalah
