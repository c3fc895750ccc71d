// request.cpp: kalah serve's request parameters (tools/server/request.h).
#include "tools/server/request.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <stdexcept>

#include "game/notation.h"

namespace kalah {
namespace {

// A whole number in lo..hi, or invalid_argument naming the parameter.
int64_t number(const std::string& name, const std::string& text, int64_t lo, int64_t hi) {
  if (const std::optional<int64_t> v = parse_whole_number(text, lo, hi)) return *v;
  throw std::invalid_argument(name + " must be a whole number " + std::to_string(lo) + ".." +
                              std::to_string(hi) + ", got '" + printable_input(text, 40) + "'");
}

constexpr const char* kKnown[] = {"position",  "pits",       "capture", "end",  "remainder",
                                  "budget_ms", "value_only", "search",  "level"};

}  // namespace

std::string search_name(const Params& params) {
  const auto it = params.find("search");
  if (it == params.end()) return "";
  const std::string& id = it->second;
  const bool ok = !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
  if (!ok)
    throw std::invalid_argument("search must be 1..64 letters, digits, '-' or '_', got '" +
                                printable_input(id, 40) + "'");
  return id;
}

ServeRequest parse_request(const Params& params, const RequestLimits& limits,
                           ServeRequest::Clock::time_point arrival) {
  for (const auto& [name, value] : params)
    if (std::find(std::begin(kKnown), std::end(kKnown), name) == std::end(kKnown))
      throw std::invalid_argument("unknown parameter '" + printable_input(name, 40) + "'");
  const auto get = [&](const char* name, const char* fallback) {
    const auto it = params.find(name);
    return it == params.end() ? std::string(fallback) : it->second;
  };
  if (!params.count("position")) throw std::invalid_argument("the position parameter is missing");
  const int pits =
      params.count("pits") ? static_cast<int>(number("pits", get("pits", ""), 1, kMaxPits)) : 0;
  const ParsedPosition parsed = parse_position(get("position", ""), pits);
  ServeRequest r;
  r.rules.pits = parsed.pits;
  r.rules.capture = parse_capture(get("capture", "standard"));
  r.rules.end = parse_end(get("end", "immediate"));
  r.rules.remainder = parse_remainder(get("remainder", "owner"));
  validate(r.rules);
  r.position = parsed.position;
  r.value_only = number("value_only", get("value_only", "0"), 0, 1) == 1;
  r.search_id = search_name(params);
  if (params.count("level")) r.level = &level_named(get("level", ""));
  r.arrival = arrival;
  std::chrono::milliseconds budget = limits.budget;
  if (params.count("budget_ms"))
    budget = std::chrono::milliseconds(
        number("budget_ms", get("budget_ms", ""), 1, limits.max_budget.count()));
  else if (r.level)
    budget = std::min(limits.max_budget,
                      std::chrono::milliseconds(static_cast<int64_t>(r.level->seconds * 1000)));
  r.deadline = arrival + budget;
  return r;
}

}  // namespace kalah
