// report.cpp: the two output forms of an analysis.
#include "tools/report.h"

#include <cstdio>

#include "solver/notation.h"
#include "tools/cli.h"

namespace kalah {
namespace {

std::vector<std::string> turns(const Analysis& a) {
  std::vector<std::string> line;
  for (const auto& turn : a.best_line) line.push_back(format_turn(turn));
  return line;
}

}  // namespace

JsonObject to_json(const Report& r) {
  const int m = r.rules.pits;
  const Analysis& a = r.analysis;
  std::vector<JsonObject> moves;
  for (const auto& mv : a.moves)
    moves.push_back(JsonObject()
                        .add("pit", mv.pit + 1)
                        .add("value", mv.value)
                        .add("result", result_word(mv.value))
                        .add("turn", format_turn(mv.turn)));
  JsonObject j;
  j.add("position", format_relative(r.position, m))
      .add("absolute", format_absolute(r.position, m))
      .add("pits", m)
      .add("rules", JsonObject()
                        .add("capture", to_string(r.rules.capture))
                        .add("end", to_string(r.rules.end))
                        .add("remainder", to_string(r.rules.remainder)))
      .add("to_move", side_name(r.position.mover))
      .add("value", a.value)
      .add("result", result_word(a.value))
      .add("board_value", a.board_value)
      .add("finished", a.finished)
      .add("moves", moves)
      .add("best_line", turns(a))
      .add("source", r.source)
      .add("nodes", r.nodes)
      .add("probes", r.probes)
      .add("seconds", r.seconds);
  return j;
}

void print_text(std::ostream& out, const Report& r) {
  const int m = r.rules.pits;
  const Analysis& a = r.analysis;
  const char* mover = side_name(r.position.mover);
  out << r.title << ", rules: " << describe(r.rules) << "\n"
      << format_relative(r.position, m) << "   (absolute " << format_absolute(r.position, m)
      << ")\n"
      << draw(r.position, m) << "value: " << signed_number(a.value) << " for " << mover << " ("
      << result_word(a.value) << ")";
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
    for (const auto& turn : turns(a)) {
      out << " " << (side == Side::kSouth ? "S:" : "N:") << turn;
      side = other(side);
    }
    out << "\n";
  }
  char tail[160];
  std::snprintf(tail, sizeof tail, "%s: %llu   database probes: %llu   time: %.3f s\n",
                r.source == "database" ? "positions looked up" : "nodes",
                static_cast<unsigned long long>(r.nodes), static_cast<unsigned long long>(r.probes),
                r.seconds);
  out << tail;
}

}  // namespace kalah
