// answer.cpp: the JSON answers (docs/json.md).
#include "api/answer.h"

#include <cstdlib>

#include "api/move_choice.h"
#include "kalah/version.h"
#include "solver/notation.h"
#include "solver/parallel_search.h"

namespace kalah {

const char* result_word(int margin) {
  return margin > 0 ? "win" : margin < 0 ? "loss" : "draw";
}

JsonObject answer_json(const std::string& command) {
  return JsonObject().add("kalah_version", KALAH_VERSION_STRING).add("command", command);
}

JsonObject rules_json(const Rules& rules) {
  return JsonObject()
      .add("capture", to_string(rules.capture))
      .add("end", to_string(rules.end))
      .add("remainder", to_string(rules.remainder));
}

JsonObject variant_json(const std::string& command, const Rules& rules) {
  return answer_json(command).add("pits", rules.pits).add("rules", rules_json(rules));
}

JsonObject position_json(const std::string& command, const Rules& rules, const Position& p) {
  const int m = rules.pits;
  return answer_json(command)
      .add("position", format_relative(p, m))
      .add("absolute", format_absolute(p, m))
      .add("pits", m)
      .add("rules", rules_json(rules))
      .add("to_move", side_name(p.mover));
}

JsonObject moves_json(const std::string& command, const Rules& rules, const Position& p) {
  JsonObject out = position_json(command, rules, p);
  if (is_terminal(rules, p.board)) {
    const int value = final_margin(p, terminal_value(rules, p.board));
    return out.add("finished", true).add("value", value).add("result", result_word(value));
  }
  std::vector<JsonObject> moves;
  for (int pit = 0; pit < rules.pits; ++pit) {
    if (p.board.pits[pit] == 0) continue;
    const Position next = apply(rules, p, pit);
    moves.push_back(JsonObject()
                        .add("pit", pit + 1)
                        .add("extra_turn", next.mover == p.mover)
                        .add("position", format_relative(next, rules.pits))
                        .add("absolute", format_absolute(next, rules.pits)));
  }
  return out.add("finished", false).add("moves", moves);
}

JsonObject move_json(const std::string& command, const Rules& rules, const Position& p,
                     const MoveChoice& c, double seconds) {
  JsonObject out = position_json(command, rules, p);
  if (c.pit < 0) {  // a finished game
    return out.add("finished", true)
        .add("value", c.value)
        .add("result", result_word(c.value))
        .add("seconds", seconds);
  }
  const Position next = apply(rules, p, c.pit);
  out.add("finished", false).add("pit", c.pit + 1).add("proven", c.proven).add("value", c.value);
  if (c.proven) out.add("result", result_word(c.value));
  out.add("source", c.source);
  if (c.source == "heuristic") out.add("depth", c.depth);
  return out.add("extra_turn", next.mover == p.mover)
      .add("next_position", format_relative(next, rules.pits))
      .add("next_absolute", format_absolute(next, rules.pits))
      .add("seconds", seconds);
}

JsonObject progress_json(const std::string& command, const Rules& rules, const Position& p,
                         const AnalysisProgress* so_far) {
  JsonObject out = position_json(command, rules, p).add("running", true);
  if (!so_far) return out;
  std::vector<JsonObject> moves;
  for (const MoveBounds& m : so_far->moves)
    moves.push_back(JsonObject().add("pit", m.pit + 1).add("lower", m.lower).add("upper", m.upper));
  return out.add("lower", so_far->lower)
      .add("upper", so_far->upper)
      .add("done", so_far->done)
      .add("total", so_far->total)
      .add("moves", moves);
}

JsonObject value_json(const std::string& command, const Rules& rules, const Position& p, int value,
                      uint64_t nodes, uint64_t probes, double seconds, uint64_t earlier_nodes) {
  JsonObject answer = position_json(command, rules, p)
                          .add("value", value)
                          .add("result", result_word(value))
                          .add("value_only", true)
                          .add("nodes", nodes)
                          .add("probes", probes)
                          .add("seconds", seconds);
  return add_earlier_nodes(answer, earlier_nodes);
}

JsonObject& add_earlier_nodes(JsonObject& answer, uint64_t earlier_nodes) {
  return earlier_nodes ? answer.add("earlier_nodes", earlier_nodes) : answer;
}

JsonObject interrupted_json(const std::string& command, const Rules& rules, const Position& p,
                            int lower, int upper, uint64_t nodes, double seconds) {
  return position_json(command, rules, p)
      .add("interrupted", true)
      .add("lower", lower)
      .add("upper", upper)
      .add("source", "bounds")
      .add("nodes", nodes)
      .add("seconds", seconds);
}

JsonObject analysis_json(const std::string& command, const Report& r) {
  const Analysis& a = r.analysis;
  const int m = r.rules.pits;
  std::vector<JsonObject> moves;
  for (const auto& mv : a.moves) {
    const Position next = apply(r.rules, r.position, mv.pit);
    moves.push_back(JsonObject()
                        .add("pit", mv.pit + 1)
                        .add("value", mv.value)
                        .add("result", result_word(mv.value))
                        .add("turn", format_turn(mv.turn))
                        .add("position", format_relative(next, m))
                        .add("absolute", format_absolute(next, m)));
  }
  std::vector<std::string> line;
  for (const auto& turn : a.best_line) line.push_back(format_turn(turn));
  JsonObject answer = position_json(command, r.rules, r.position)
                          .add("value", a.value)
                          .add("result", result_word(a.value))
                          .add("board_value", a.board_value)
                          .add("finished", a.finished)
                          .add("moves", moves)
                          .add("best_line", line)
                          .add("source", r.source)
                          .add("nodes", r.nodes)
                          .add("probes", r.probes)
                          .add("seconds", r.seconds);
  return add_earlier_nodes(answer, r.earlier_nodes);
}

JsonObject pie_json(const std::string& command, const Rules& rules, const Position& p,
                    const PieAnalysis& pie) {
  std::vector<JsonObject> list;
  for (const auto& o : pie.openings) {
    JsonObject opening = JsonObject().add("turn", format_turn(o.turn));
    if (o.exact())
      opening.add("value", o.value)
          .add("swap", o.swapped)
          .add("value_with_pie", -std::abs(o.value));
    else
      opening.add("lower", o.lower).add("upper", o.upper);
    list.push_back(opening);
  }
  JsonObject answer = position_json(command, rules, p)
                          .add("pie", true)
                          .add("value", pie.value)
                          .add("result", result_word(pie.value))
                          .add("best_opening", format_turn(pie.openings[pie.best].turn))
                          .add("openings", list);
  return pie.value_only ? answer.add("value_only", true) : answer;
}

}  // namespace kalah
