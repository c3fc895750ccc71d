// request.h: the parameters of kalah serve's position requests (/api/v1/analyse, /api/v1/move),
// checked, with the deadline each brings.
#pragma once

#include <chrono>
#include <map>
#include <string>

#include "game/rules.h"
#include "query/levels.h"
#include "tools/server/http_server.h"

namespace kalah {

using Params = std::map<std::string, std::string>;

// What a request may ask for.
struct RequestLimits {
  std::chrono::milliseconds budget{3000};       // the default per-request budget
  std::chrono::milliseconds max_budget{60000};  // what a request may ask for at most
};

// A request, checked: its rules, position and deadline (its arrival plus its budget).
struct ServeRequest {
  using Clock = std::chrono::steady_clock;
  Rules rules;
  Position position;
  bool value_only = false;       // the position's value alone, when it takes a search
  const Level* level = nullptr;  // a move's level (query/levels.h)
  std::string search_id;         // the client's name for its search: progress and cancel by it
  Clock::time_point arrival, deadline;
  ClientLink* client = nullptr;  // its search stops when the client leaves
};

inline ServeRequest with(const ServeRequest& r, ClientLink& client) {
  ServeRequest out = r;
  out.client = &client;
  return out;
}

// The query parameters position, pits, capture, end, remainder, budget_ms, value_only, search
// and level (its time is the budget unless budget_ms is given), checked; throws
// std::invalid_argument (with the command line's message) naming the bad one.
ServeRequest parse_request(const Params& params, const RequestLimits& limits,
                           ServeRequest::Clock::time_point arrival = ServeRequest::Clock::now());

// The `search` parameter: a client's name for its search (1..64 of [A-Za-z0-9_-]), or "" when
// absent; throws std::invalid_argument otherwise.
std::string search_name(const Params& params);

}  // namespace kalah
