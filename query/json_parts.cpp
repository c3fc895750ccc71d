// json_parts.cpp: the parts of the JSON answers (docs/json.md).
#include "query/json_parts.h"

#include "game/notation.h"
#include "kalah/version.h"

namespace kalah {

const char* result_word(int margin) {
  return margin > 0 ? "win" : margin < 0 ? "loss" : "draw";
}

std::vector<MoveShown> moves_shown(const Rules& rules, const Position& p, const Analysis& a) {
  std::vector<MoveShown> out;
  for (const MoveReport& mv : a.moves) {
    const Position next = apply(rules, p, mv.pit);
    out.push_back({mv.pit + 1, mv.value, result_word(mv.value), format_turn(mv.turn, p.mover),
                   format_relative(next, rules.pits), format_absolute(next, rules.pits)});
  }
  return out;
}

JsonObject kalah_json(const std::string& command) {
  return JsonObject().add("kalah_version", KALAH_VERSION_STRING).add("command", command);
}

JsonObject rules_json(const Rules& rules) {
  return JsonObject()
      .add("capture", to_string(rules.capture))
      .add("end", to_string(rules.end))
      .add("remainder", to_string(rules.remainder));
}

JsonObject variant_json(const std::string& command, const Rules& rules) {
  return kalah_json(command).add("pits", rules.pits).add("rules", rules_json(rules));
}

JsonObject position_json(const std::string& command, const Rules& rules, const Position& p) {
  const int m = rules.pits;
  return kalah_json(command)
      .add("position", format_relative(p, m))
      .add("absolute", format_absolute(p, m))
      .add("pits", m)
      .add("rules", rules_json(rules))
      .add("to_move", side_name(p.mover));
}

JsonObject rule_choices_json() {
  return JsonObject()
      .add("capture",
           std::vector<std::string>{to_string(Capture::kStandard), to_string(Capture::kEmpty)})
      .add("end", std::vector<std::string>{to_string(End::kImmediate), to_string(End::kOnTurn)})
      .add("remainder",
           std::vector<std::string>{to_string(Remainder::kOwner), to_string(Remainder::kDiscard)});
}

std::string final_absolute(const Rules& rules, const Position& p) {
  Position end = p;
  const int m = rules.pits;
  if (rules.remainder == Remainder::kOwner) {
    end.mover_store += row_seeds(p.board, 0, m);
    end.opponent_store += row_seeds(p.board, m, m);
  }
  end.board = Board{};
  return format_absolute(end, m);
}

JsonObject moves_json(const std::string& command, const Rules& rules, const Position& p) {
  JsonObject out = position_json(command, rules, p);
  if (is_terminal(rules, p.board)) {
    const int value = final_margin(p, terminal_value(rules, p.board));
    return out.add("finished", true)
        .add("value", value)
        .add("result", result_word(value))
        .add("final_absolute", final_absolute(rules, p));
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

JsonObject estimate_json(const Estimate& e, Side mover) {
  JsonObject out = JsonObject().add("value", e.value).add("depth", e.depth).add("exact", e.exact);
  if (e.pit >= 0) out.add("best", e.pit + 1).add("line", format_turns(e.line, mover));
  if (e.moves.empty()) return out;
  std::vector<JsonObject> moves;
  for (const MoveEstimate& m : e.moves)
    moves.push_back(JsonObject()
                        .add("pit", m.pit + 1)
                        .add("value", m.value)
                        .add("line", format_turns(m.line, mover)));
  return out.add("moves", moves);
}

JsonObject progress_json(const std::string& command, const Rules& rules, const Position& p,
                         const SearchProgress* so_far, const Estimate* estimate) {
  JsonObject out = position_json(command, rules, p).add("running", true);
  if (estimate) out.add("estimate", estimate_json(*estimate, p.mover));
  if (!so_far) return out;
  std::vector<JsonObject> moves;
  for (const MoveMargin& m : so_far->moves)
    moves.push_back(JsonObject()
                        .add("pit", m.pit + 1)
                        .add("lower", m.margin.lower)
                        .add("upper", m.margin.upper));
  return out.add("lower", so_far->margin.lower)
      .add("upper", so_far->margin.upper)
      .add("done", so_far->done)
      .add("total", so_far->total)
      .add("moves", moves);
}

}  // namespace kalah
