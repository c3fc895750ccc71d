// outcome_json.cpp: an Outcome (query/query.h) as one JSON object (docs/json.md).
#include <cstdlib>

#include "game/notation.h"
#include "query/json_parts.h"
#include "query/query.h"

namespace kalah {
namespace {

JsonObject& add_earlier_nodes(JsonObject& answer, uint64_t earlier_nodes) {
  return earlier_nodes ? answer.add("earlier_nodes", earlier_nodes) : answer;
}

// What a search stopped before its end proved: the bounds on the final margin, and why it
// stopped.
JsonObject stopped_json(const std::string& command, const Outcome& o) {
  JsonObject out = position_json(command, o.rules, o.position)
                       .add("interrupted", true)
                       .add("lower", o.margin.lower)
                       .add("upper", o.margin.upper)
                       .add("source", "bounds")
                       .add("nodes", o.nodes)
                       .add("seconds", o.seconds);
  if (o.margin.exact())  // bounds that meet are the value, whatever else was not finished
    out.add("value", o.margin.lower).add("result", result_word(o.margin.lower));
  if (o.estimate) out.add("estimate", estimate_json(*o.estimate, o.position.mover));
  return add_earlier_nodes(out, o.earlier_nodes).add("stopped", to_string(o.stopped));
}

JsonObject analysis_json(const std::string& command, const Outcome& o) {
  const Analysis& a = *o.analysis;
  std::vector<JsonObject> moves;
  for (const MoveShown& mv : moves_shown(o.rules, o.position, a))
    moves.push_back(JsonObject()
                        .add("pit", mv.pit)
                        .add("value", mv.value)
                        .add("result", mv.result)
                        .add("turn", mv.turn)
                        .add("position", mv.position)
                        .add("absolute", mv.absolute));
  JsonObject out = position_json(command, o.rules, o.position)
                       .add("value", a.value)
                       .add("result", result_word(a.value))
                       .add("board_value", a.board_value)
                       .add("finished", a.finished)
                       .add("moves", moves)
                       .add("best_line", format_turns(a.best_line, o.position.mover))
                       .add("source", to_string(o.source))
                       .add("nodes", o.nodes)
                       .add("probes", o.probes)
                       .add("seconds", o.seconds);
  if (a.finished) out.add("final_absolute", final_absolute(o.rules, o.position));
  return add_earlier_nodes(out, o.earlier_nodes);
}

JsonObject value_json(const std::string& command, const Outcome& o) {
  JsonObject out = position_json(command, o.rules, o.position)
                       .add("value", o.margin.lower)
                       .add("result", result_word(o.margin.lower))
                       .add("value_only", true)
                       .add("nodes", o.nodes)
                       .add("probes", o.probes)
                       .add("seconds", o.seconds);
  return add_earlier_nodes(out, o.earlier_nodes);
}

JsonObject pie_json(const std::string& command, const Outcome& o) {
  const PieAnalysis& pie = *o.pie;
  std::vector<JsonObject> list;
  for (const auto& opening : pie.openings) {
    JsonObject j = JsonObject().add("turn", format_turn(opening.turn, o.position.mover));
    if (opening.exact())
      j.add("value", opening.value)
          .add("swap", opening.swapped)
          .add("value_with_pie", -std::abs(opening.value));
    else
      j.add("lower", opening.bounds.lower).add("upper", opening.bounds.upper);
    list.push_back(j);
  }
  JsonObject out =
      position_json(command, o.rules, o.position)
          .add("pie", true)
          .add("value", pie.value)
          .add("result", result_word(pie.value))
          .add("best_opening", format_turn(pie.openings[pie.best].turn, o.position.mover))
          .add("openings", list);
  if (pie.value_only) out.add("value_only", true);
  out.add("nodes", o.nodes).add("probes", o.probes).add("seconds", o.seconds);
  return add_earlier_nodes(out, o.earlier_nodes);
}

JsonObject move_json(const std::string& command, const Outcome& o) {
  const MoveChoice& c = *o.move;
  JsonObject out = position_json(command, o.rules, o.position);
  if (c.pit < 0) {  // a finished game
    return out.add("finished", true)
        .add("value", c.value)
        .add("result", result_word(c.value))
        .add("final_absolute", final_absolute(o.rules, o.position))
        .add("seconds", o.seconds);
  }
  const Position next = apply(o.rules, o.position, c.pit);
  out.add("finished", false).add("pit", c.pit + 1).add("proven", c.proven).add("value", c.value);
  if (c.proven) out.add("result", result_word(c.value));
  out.add("source", to_string(c.source));
  if (c.source == Source::kHeuristic) out.add("depth", c.depth);
  if (c.best) out.add("best", *c.best);
  return out.add("extra_turn", next.mover == o.position.mover)
      .add("next_position", format_relative(next, o.rules.pits))
      .add("next_absolute", format_absolute(next, o.rules.pits))
      .add("seconds", o.seconds);
}

}  // namespace

JsonObject outcome_json(const std::string& command, const Outcome& o) {
  JsonObject out = !o.complete() ? stopped_json(command, o)
                   : o.move      ? move_json(command, o)
                   : o.pie       ? pie_json(command, o)
                   : o.analysis  ? analysis_json(command, o)
                                 : value_json(command, o);
  if (o.certificate) out.add("certificate", certificate_json(*o.certificate));
  return out;
}

}  // namespace kalah
