// report.cpp: the text form of an answer (the JSON form is query/outcome_json.cpp).
#include "tools/cli/report.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>

#include "base/units.h"
#include "game/notation.h"
#include "query/json_parts.h"

namespace kalah {
namespace {

// " S:3-6 N:2-1 ...": a line's turns, `mover`'s first (game/notation.h).
std::string line_text(const Line& line, Side mover) {
  std::string text;
  for (const std::string& turn : format_turns(line, mover)) text += " " + turn;
  return text;
}

void print_counts(std::ostream& out, const Outcome& o) {
  char line[160];
  std::snprintf(line, sizeof line, "%s: %llu   database probes: %llu   time: %.3f s\n",
                o.source == Source::kDatabase ? "positions looked up" : "nodes",
                static_cast<unsigned long long>(o.nodes), static_cast<unsigned long long>(o.probes),
                o.seconds);
  out << line;
  if (o.earlier_nodes)
    out << "resumed from a checkpoint: " << o.earlier_nodes << " nodes before this run, "
        << o.nodes + o.earlier_nodes << " in all\n";
}

// Moves by value, best first, then by pit: the board's order.
template <class Move>
std::vector<Move> best_first(std::vector<Move> moves) {
  std::stable_sort(moves.begin(), moves.end(),
                   [](const Move& a, const Move& b) { return a.value > b.value; });
  return moves;
}

void print_analysis(std::ostream& out, const Outcome& o) {
  const Analysis& a = *o.analysis;
  const char* mover = side_name(o.position.mover);
  out << "value: " << signed_number(a.value) << " for " << mover << " (" << result_word(a.value)
      << ")";
  if (a.finished) out << "; the game is over";
  out << "\n";
  if (!a.moves.empty()) {
    out << "moves, best first as on the board (final margin for " << mover << "):\n";
    for (const auto& mv : best_first(a.moves)) {
      char row[96];
      std::snprintf(row, sizeof row, "  pit %d  %4s  %-5s %s\n", mv.pit + 1,
                    signed_number(mv.value).c_str(), result_word(mv.value),
                    format_turn(mv.turn, o.position.mover).c_str());
      out << row;
    }
    out << "best line:" << line_text(a.best_line, o.position.mover) << "\n";
  }
  if (o.source == Source::kStore)
    out << "from the answer store beside the database (solved before; --no-store searches again)\n";
}

void print_pie(std::ostream& out, const Outcome& o) {
  const PieAnalysis& pie = *o.pie;
  const char* first = side_name(o.position.mover);
  const char* second = side_name(other(o.position.mover));
  out << "openings of " << first << " (final margin for " << first << "; " << second
      << " swaps when it is positive):\n";
  for (const auto& opening : pie.openings) {
    char row[128];
    if (opening.exact())
      std::snprintf(row, sizeof row, "  %-14s %4s  %s %4s\n",
                    format_turn(opening.turn, o.position.mover).c_str(),
                    signed_number(opening.value).c_str(), opening.swapped ? "swap  " : "keep  ",
                    signed_number(-std::abs(opening.value)).c_str());
    else  // the pie rule's value alone proved only that it comes no nearer a draw
      std::snprintf(row, sizeof row, "  %-14s %s .. %s: no nearer a draw\n",
                    format_turn(opening.turn, o.position.mover).c_str(),
                    signed_number(opening.bounds.lower).c_str(),
                    signed_number(opening.bounds.upper).c_str());
    out << row;
  }
  out << "value under the pie rule: " << signed_number(pie.value) << " for " << first << " ("
      << result_word(pie.value) << "), best opening "
      << format_turn(pie.openings[pie.best].turn, o.position.mover) << "\n";
}

void print_stopped(std::ostream& out, const Outcome& o) {
  out << (o.stopped == StopReason::kDeadline ? "stopped at its time after " : "interrupted after ")
      << o.nodes << " nodes";
  if (o.earlier_nodes) out << " (and " << o.earlier_nodes << " before the checkpoint)";
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f", o.seconds);  // not "2.02776 s"
  out << ", " << seconds << " s: the value for " << side_name(o.position.mover);
  if (o.margin.exact())
    out << " is " << signed_number(o.margin.lower)
        << "; the rest of the analysis was not finished\n";
  else
    out << " lies in [" << signed_number(o.margin.lower) << ", " << signed_number(o.margin.upper)
        << "]"
        << (o.margin == margin_bounds(o.position) ? ", all its seeds allow: nothing proven yet"
                                                  : "")
        << "\n";
  if (o.estimate && !o.margin.exact()) {
    out << "estimate: " << signed_number(o.estimate->value) << " (a heuristic search "
        << o.estimate->depth << " plies deep" << (o.estimate->pit >= 0 ? ", best pit " : "")
        << (o.estimate->pit >= 0 ? std::to_string(o.estimate->pit + 1) : "") << ")\n";
    if (!o.estimate->line.empty())
      out << "expected line (not proven):" << line_text(o.estimate->line, o.position.mover) << "\n";
    if (o.estimate->moves.size() > 1) {  // every move's, as the JSON has them
      out << "estimated moves, best first (not proven):\n";
      for (const MoveEstimate& mv : best_first(o.estimate->moves))
        out << "  pit " << mv.pit + 1 << "  " << std::setw(4) << signed_number(mv.value) << " "
            << line_text(mv.line, o.position.mover) << "\n";
    }
  }
}

void print_certificate(std::ostream& out, const Certified& c, const std::string& db_dir) {
  out << "certificate: " << c.file << ", " << human_bytes(c.bytes) << ", " << c.positions
      << " positions, " << c.seconds << " s; check it with: kalah-check-certificate " << c.file
      << (db_dir.empty() ? "" : " --db " + db_dir) << "\n";
}

}  // namespace

std::string progress_text(const QueryProgress& p, double seconds) {
  char head[64];
  if (p.search.nodes)
    std::snprintf(head, sizeof head, "%.1f s, %.2g nodes", seconds,
                  static_cast<double>(p.search.nodes));
  else
    std::snprintf(head, sizeof head, "%.1f s", seconds);
  std::string text = head;
  const Bounds& b = p.search.margin;
  if (b.lower <= b.upper)
    text += b.exact()
                ? ": value " + signed_number(b.lower)
                : ": value in [" + signed_number(b.lower) + ", " + signed_number(b.upper) + "]";
  if (p.search.total)
    text += ", " + std::to_string(p.search.done) + " of " + std::to_string(p.search.total) +
            " moves valued";
  if (p.estimate && !b.exact())
    text += "; estimate " + signed_number(p.estimate->value) +
            (p.estimate->exact ? " (exact)" : " at depth " + std::to_string(p.estimate->depth));
  return text;
}

void show_progress(Query& q, ProgressLine& line, const std::string& prefix) {
  q.estimate = line.live();
  if (!line.live()) return;
  q.progress = [&line, prefix, start = std::chrono::steady_clock::now()](const QueryProgress& p) {
    line.show(prefix + progress_text(p, seconds_since(start)));
  };
}

std::string long_search_warning(const Query& q, int threads) {
  const double nodes = expected_nodes(q);
  const double hours = nodes / (kNodesPerThreadSecond * threads) / 3600;
  if (hours < 1) return "";
  char text[640], time[64];
  if (hours < 1e4) {  // two figures, never in e-notation: "about 230 hours (10 days)"
    const int decimals = hours < 10 ? 1 : 0;
    const double unit = hours < 10 ? 0.1 : std::pow(10.0, std::floor(std::log10(hours)) - 1);
    const double shown = std::round(hours / unit) * unit;
    const int n = std::snprintf(time, sizeof time, "about %.*f hours", decimals, shown);
    if (hours >= 48) std::snprintf(time + n, sizeof time - n, " (%.0f days)", hours / 24);
  } else
    std::snprintf(time, sizeof time, "far more than 10,000 hours");
  const int above = seeds(q.position.board) - (q.db ? q.db->max_seeds() : 0);
  std::snprintf(
      text, sizeof text,
      "this search will likely take over an hour: the position is %d seeds above %s, and "
      "searches like it take %s at %.2g million nodes/s on %d thread%s (a model of measured "
      "searches: docs/design.md section 7). "
      "What helps: a database with more layers (kalah build --max-seeds N; docs/costs.md lists "
      "their costs)%s, and --checkpoint DIR, so that a stop loses nothing. Ctrl-C prints the "
      "bounds and the estimate so far.",
      above,
      q.db ? ("the database's " + std::to_string(q.db->max_seeds()) + " layers").c_str()
           : "any database (there is none)",
      time, kNodesPerThreadSecond * threads / 1e6, threads, threads == 1 ? "" : "s",
      q.ask == Ask::kAnalysis ? ", --value-only (about 5 times less work)" : "");
  return text;
}

void print_heading(std::ostream& out, const std::string& title, const Rules& rules,
                   const Position& p) {
  const int m = rules.pits;
  out << title << ", rules: " << describe(rules) << "\n"
      << format_relative(p, m) << "   (absolute " << format_absolute(p, m) << ")\n"
      << draw(p, m);
}

void print_outcome(std::ostream& out, const Outcome& o, const std::string& db_dir) {
  if (!o.complete()) return print_stopped(out, o);
  if (o.pie) {
    print_pie(out, o);
  } else if (o.analysis) {
    print_analysis(out, o);
  } else {
    out << "value: " << signed_number(o.margin.lower) << " for " << side_name(o.position.mover)
        << " (" << result_word(o.margin.lower) << "); moves not valued (--value-only)\n";
  }
  print_counts(out, o);
  if (o.certificate) print_certificate(out, *o.certificate, db_dir);
}

void print_processes(std::ostream& out, const FrontierStats& s, double seconds) {
  char line[320];
  std::snprintf(line, sizeof line,
                "over %zu processes, %d search threads: %llu jobs (%llu cancelled, %llu leaves "
                "refined), %zu boards above the leaves, threads busy %.0f %% of the time, %.2g "
                "bytes sent a node; nodes by process:",
                s.nodes_by_process.size(), s.slots, static_cast<unsigned long long>(s.jobs),
                static_cast<unsigned long long>(s.cancelled),
                static_cast<unsigned long long>(s.refined), s.dag_nodes,
                100 * s.busy_seconds / (s.slots * seconds),
                s.nodes ? static_cast<double>(s.bytes) / s.nodes : 0.0);
  out << line;
  for (uint64_t n : s.nodes_by_process) out << " " << n;
  out << "\n";
}

}  // namespace kalah
