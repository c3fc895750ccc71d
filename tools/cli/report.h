// report.h: an answer as text (`kalah solve`, `kalah query`; the JSON form is query/query.h's
// outcome_json).
#pragma once

#include <ostream>
#include <string>

#include "query/query.h"
#include "tools/cli/progress_line.h"

namespace kalah {

// The parts every answer about a position starts with: the title line, both forms and the
// drawing.
void print_heading(std::ostream& out, const std::string& title, const Rules& rules,
                   const Position& p);

// The answer below the heading: the value with every move and the best line, the value alone,
// the pie rule's openings, or the bounds a stopped search proved; then the counts and the
// certificate (with the command that checks it, naming `db_dir`).
void print_outcome(std::ostream& out, const Outcome& o, const std::string& db_dir = "");

// A search's progress on one line: "12.3 s, 4.1e+07 nodes: value in [-4, +12], 2 of 6 moves
// valued; estimate +8 at depth 14".
std::string progress_text(const QueryProgress& p, double seconds);

// Shows q's progress on `line` (`prefix`, then progress_text) while it runs, with the estimate of
// a heuristic search beside it when the line is live (query --search, book build).
void show_progress(Query& q, ProgressLine& line, const std::string& prefix = "");

// A warning for a search that will likely take over an hour on `threads` threads
// (query/query.h's expected_nodes; a thread searches about kNodesPerThreadSecond a second here),
// saying what would shorten it; "" for one that will not.
inline constexpr double kNodesPerThreadSecond = 2e6;
std::string long_search_warning(const Query& q, int threads);

// What the processes of a search spread over them did (under mpirun).
void print_processes(std::ostream& out, const FrontierStats& s, double seconds);

}  // namespace kalah
