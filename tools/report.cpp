// report.cpp: the text form of an analysis (the JSON form is api/answer.h).
#include "tools/report.h"

#include <cstdio>
#include <cstdlib>

#include "solver/notation.h"
#include "tools/cli.h"

namespace kalah {

void print_text(std::ostream& out, const Report& r) {
  const Analysis& a = r.analysis;
  const char* mover = side_name(r.position.mover);
  out << "value: " << signed_number(a.value) << " for " << mover << " (" << result_word(a.value)
      << ")";
  if (a.finished) out << "; the game is over";
  out << "\n";
  if (!a.moves.empty()) {
    out << "moves (final margin for " << mover << "):\n";
    for (const auto& mv : a.moves) {
      char row[96];
      std::snprintf(row, sizeof row, "  pit %d  %4s  %-5s %s\n", mv.pit + 1,
                    signed_number(mv.value).c_str(), result_word(mv.value),
                    format_turn(mv.turn).c_str());
      out << row;
    }
    out << "best line:";
    Side side = r.position.mover;
    for (const auto& turn : a.best_line) {
      out << " " << (side == Side::kSouth ? "S:" : "N:") << format_turn(turn);
      side = other(side);
    }
    out << "\n";
  }
  if (r.source == "store")
    out << "from the answer store beside the database (solved before; --no-store searches again)\n";
  print_counts(out, r.source == "database" ? "positions looked up" : "nodes", r.nodes, r.probes,
               r.seconds, r.earlier_nodes);
}

void print_heading(std::ostream& out, const std::string& title, const Rules& rules,
                   const Position& p) {
  const int m = rules.pits;
  out << title << ", rules: " << describe(rules) << "\n"
      << format_relative(p, m) << "   (absolute " << format_absolute(p, m) << ")\n"
      << draw(p, m);
}

void print_pie(std::ostream& out, const Position& p, const PieAnalysis& pie, uint64_t nodes,
               uint64_t probes, double seconds, uint64_t earlier_nodes) {
  const char* first = side_name(p.mover);
  const char* second = side_name(other(p.mover));
  out << "openings of " << first << " (final margin for " << first << "; " << second
      << " swaps when it is positive):\n";
  for (const auto& o : pie.openings) {
    char row[128];
    if (o.exact())
      std::snprintf(row, sizeof row, "  %-14s %4s  %s %4s\n", format_turn(o.turn).c_str(),
                    signed_number(o.value).c_str(), o.swapped ? "swap  " : "keep  ",
                    signed_number(-std::abs(o.value)).c_str());
    else  // --pie --value-only proved only that it comes no nearer a draw
      std::snprintf(row, sizeof row, "  %-14s %s .. %s: no nearer a draw\n",
                    format_turn(o.turn).c_str(), signed_number(o.lower).c_str(),
                    signed_number(o.upper).c_str());
    out << row;
  }
  out << "value under the pie rule: " << signed_number(pie.value) << " for " << first << " ("
      << result_word(pie.value) << "), best opening " << format_turn(pie.openings[pie.best].turn)
      << "\n";
  print_counts(out, "nodes", nodes, probes, seconds, earlier_nodes);
}

void print_counts(std::ostream& out, const char* what, uint64_t nodes, uint64_t probes,
                  double seconds, uint64_t earlier_nodes) {
  char line[160];
  std::snprintf(line, sizeof line, "%s: %llu   database probes: %llu   time: %.3f s\n", what,
                static_cast<unsigned long long>(nodes), static_cast<unsigned long long>(probes),
                seconds);
  out << line;
  if (earlier_nodes)
    out << "resumed from a checkpoint: " << earlier_nodes << " nodes before this run, "
        << nodes + earlier_nodes << " in all\n";
}

}  // namespace kalah
