// report.h: printing an analysed position as text (solve and query share it; JSON: api/answer.h).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "api/answer.h"
#include "solver/analysis.h"
#include "solver/openings.h"

namespace kalah {

// The text form below the heading (print_heading): value, every move, best line, nodes and time.
void print_text(std::ostream& out, const Report& r);

// The pie rule's answer: every opening with its value and the swap decision, the best one.
void print_pie(std::ostream& out, const Position& p, const PieAnalysis& pie, uint64_t nodes,
               uint64_t probes, double seconds, uint64_t earlier_nodes = 0);

// The parts every answer about a position shares: the title line, both forms and the drawing;
// and the closing line of counts, with the nodes of the earlier runs a resumed search continued.
void print_heading(std::ostream& out, const std::string& title, const Rules& rules,
                   const Position& p);
void print_counts(std::ostream& out, const char* what, uint64_t nodes, uint64_t probes,
                  double seconds, uint64_t earlier_nodes = 0);

}  // namespace kalah
