// levels.cpp: the playing levels' table (query/levels.h).
#include "query/levels.h"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <utility>

#include "query/query.h"
#include "query/query_search.h"
#include "solver/notation.h"

namespace kalah {

std::span<const Level> levels() {
  static constexpr Level kLevels[] = {{"perfect", 30, -1}, {"strong", 5, -1}, {"quick", 1, -1},
                                      {"casual", 1, 3},    {"beginner", 1, 8}};
  return kLevels;
}

const Level& level_named(std::string_view name) {
  std::string names;
  for (const Level& l : levels()) {
    if (name == l.name) return l;
    names += names.empty() ? "" : &l == &levels().back() ? " or " : ", ";
    names += l.name;
  }
  throw std::invalid_argument("the level must be " + names + ", got '" +
                              printable_input(std::string(name), 20) + "'");
}

std::vector<JsonObject> levels_json() {
  std::vector<JsonObject> out;
  for (const Level& l : levels()) {
    JsonObject level;
    level.add("name", l.name).add("seconds", l.seconds);
    if (l.weaker()) level.add("within", l.within);
    out.push_back(level);
  }
  return out;
}

MoveChoice level_move(const Query& q, const StopFlag* stop) {
  Query all = q;  // every move's value (or estimate) by the deadline
  all.ask = Ask::kAnalysis;
  all.estimate = true;
  all.stop = stop;
  all.level = nullptr;
  all.progress = nullptr;
  const Outcome o = run(all);
  std::vector<std::pair<int, int>> moves;  // (value, pit)
  if (o.complete() && o.analysis)
    for (const MoveReport& m : o.analysis->moves) moves.push_back({m.value, m.pit});
  else if (o.estimate)
    for (const MoveEstimate& m : o.estimate->moves) moves.push_back({m.value, m.pit});
  if (moves.empty()) return move_of(q, stop);  // nothing known of the moves: the heuristic's
  const int best = std::max_element(moves.begin(), moves.end())->first;
  std::vector<std::pair<int, int>> near;
  for (const auto& m : moves)
    if (m.first >= best - q.level->within) near.push_back(m);
  thread_local std::mt19937 rng{std::random_device{}()};
  const auto& [value, pit] = near[std::uniform_int_distribution<size_t>(0, near.size() - 1)(rng)];
  MoveChoice c{pit, o.complete(), value, o.complete() ? o.source : Source::kHeuristic, 0};
  c.best = best;
  return c;
}

}  // namespace kalah
