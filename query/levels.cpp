// levels.cpp: the playing levels' table (query/levels.h).
#include "query/levels.h"

#include <stdexcept>

#include "game/notation.h"

namespace kalah {

std::span<const Level> levels() {
  static constexpr Level kLevels[] = {{"perfect", 30, -1},
                                      {"strong", 5, -1},
                                      {"quick", 1, -1},
                                      {"casual", 1, 3},
                                      {"beginner", 1, 8}};
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

}  // namespace kalah
