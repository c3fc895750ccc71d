// report.h: printing an analysed position, as text or as one JSON line (solve and query share it).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "solver/search.h"
#include "tools/json.h"

namespace kalah {

struct Report {
  std::string title;  // first line of the text form, e.g. "Kalah(6,4) start position"
  Rules rules;
  Position position;
  Analysis analysis;
  std::string source;  // "search" or "database"
  uint64_t nodes = 0;
  uint64_t probes = 0;  // database probes
  double seconds = 0;
};

// The JSON object: position, rules, value, result, moves, best_line, nodes, seconds, ...
JsonObject to_json(const Report& r);
// The text form: position and drawing, value, every move, best line, nodes and time.
void print_text(std::ostream& out, const Report& r);

}  // namespace kalah
