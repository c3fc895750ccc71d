// rule_args.h: the rules as Python gives them: keyword arguments (None: from a Position, a
// database or the command line's defaults) checked against a Position's own rules.
#pragma once

#include <kalah/kalah.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

namespace kalah_python {

namespace py = pybind11;
namespace api = kalah::api;

// A rule argument: None takes it from `held` (a Position's or a database's rules) when there
// are such, else the command line's default. One that contradicts the database is the library's
// ValueError.
using Rule = std::optional<std::string>;
inline api::Rules rules(int pits, const Rule& capture, const Rule& end, const Rule& remainder,
                        const std::optional<api::Rules>& held) {
  const api::Rules base = held.value_or(api::Rules{});
  return {pits   ? pits
          : held ? base.pits
                 : 0,
          capture.value_or(base.capture), end.value_or(base.end),
          remainder.value_or(base.remainder)};
}
// "m=4 capture=empty end=immediate remainder=owner".
inline std::string rules_text(const api::Rules& r) {
  return "m=" + std::to_string(r.pits) + " capture=" + r.capture + " end=" + r.end +
         " remainder=" + r.remainder;
}
// ValueError naming both when the rule arguments (`asked`, the position's where none was given)
// contradict a Position's own rules.
inline void check_position_rules(const api::Rules& held, const api::Rules& asked) {
  if (held != asked)
    throw py::value_error("the Position is of " + rules_text(held) + ", not " + rules_text(asked) +
                          ": a Position keeps its rules");
}
inline std::optional<api::Rules> rules_of(const api::Database* db) {
  return db ? std::optional(db->rules()) : std::nullopt;
}

// The rules as keyword arguments of solve(), analyse() and Position.start().
inline py::dict rules_dict(const api::Rules& r) {
  py::dict d;
  d["capture"] = r.capture;
  d["end"] = r.end;
  d["remainder"] = r.remainder;
  return d;
}

}  // namespace kalah_python
