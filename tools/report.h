// report.h: printing an analysed position, as text or as one JSON line (solve and query share it).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "solver/analysis.h"
#include "solver/openings.h"
#include "tools/json.h"

namespace kalah {

struct Report {
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
// The text form below the heading (print_heading): value, every move, best line, nodes and time.
void print_text(std::ostream& out, const Report& r);

// The pie rule's answer: every opening with its value and the swap decision, the best one.
JsonObject pie_json(const Rules& rules, const Position& p, const PieAnalysis& pie);
void print_pie(std::ostream& out, const Position& p, const PieAnalysis& pie, uint64_t nodes,
               uint64_t probes, double seconds);

// The parts every answer about a position shares. JSON: position (both forms), pits, rules,
// side to move; text: the title line, both forms and the drawing; and the closing line of counts.
JsonObject position_json(const Rules& rules, const Position& p);
void print_heading(std::ostream& out, const std::string& title, const Rules& rules,
                   const Position& p);
void print_counts(std::ostream& out, const char* what, uint64_t nodes, uint64_t probes,
                  double seconds);

}  // namespace kalah
