// play_support.cpp: `kalah play`'s levels, coach and replay command (tools/play_support.h).
#include "tools/play_support.h"

#include <algorithm>
#include <vector>

#include "api/deadline.h"
#include "tools/cli.h"

namespace kalah {

const Level& parse_level(const std::string& name) {
  static const Level kLevels[] = {{"perfect", 30, -1}, {"strong", 5, -1}, {"quick", 1, -1},
                                  {"casual", 1, 3},    {"beginner", 1, 8}};
  for (const Level& l : kLevels)
    if (name == l.name) return l;
  throw UsageError("--level must be perfect, strong, quick, casual or beginner, got '" +
                   printable_input(name, 20) + "'");
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

MoveChoice level_move(const Query& base, const Position& p, int within, double seconds,
                      std::mt19937& rng) {
  Query q = base;
  q.position = p;
  q.ask = Ask::kAnalysis;
  q.estimate = true;
  q.deadline = seconds_from_now(seconds);
  const Outcome o = run(q);
  std::vector<std::pair<int, int>> moves;  // (value, pit)
  if (o.complete() && o.analysis)
    for (const MoveReport& m : o.analysis->moves) moves.push_back({m.value, m.pit});
  else if (o.estimate)
    for (const MoveEstimate& m : o.estimate->moves) moves.push_back({m.value, m.pit});
  if (moves.empty()) {  // nothing known of the moves: the heuristic's choice
    Query move = base;
    move.position = p;
    move.ask = Ask::kMove;
    move.deadline = seconds_from_now(seconds);
    return *run(move).move;
  }
  const int best = std::max_element(moves.begin(), moves.end())->first;
  std::vector<std::pair<int, int>> near;
  for (const auto& m : moves)
    if (m.first >= best - within) near.push_back(m);
  const auto& [value, pit] = near[std::uniform_int_distribution<size_t>(0, near.size() - 1)(rng)];
  return {pit, o.complete(), value, o.complete() ? o.source : Source::kHeuristic, 0};
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
