// report.h: an answer as text (`kalah solve`, `kalah query`; the JSON form is api/query.h's
// outcome_json).
#pragma once

#include <ostream>
#include <string>

#include "api/query.h"

namespace kalah {

// The parts every answer about a position starts with: the title line, both forms and the
// drawing.
void print_heading(std::ostream& out, const std::string& title, const Rules& rules,
                   const Position& p);

// The answer below the heading: the value with every move and the best line, the value alone,
// the pie rule's openings, or the bounds a stopped search proved; then the counts and the
// certificate (with the command that checks it, naming `db_dir`).
void print_outcome(std::ostream& out, const Outcome& o, const std::string& db_dir = "");

// What the processes of a search spread over them did (under mpirun).
void print_processes(std::ostream& out, const FrontierStats& s, double seconds);

}  // namespace kalah
