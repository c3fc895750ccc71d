// routes.h: what each URL of `kalah serve` answers: the board and its files (embedded), the API
// under /api/v1 (docs/json.md), JSON errors for the rest. `kalah serve` (tools/cli/cmd_serve.cpp)
// parses its options and starts an HttpServer over route().
#pragma once

#include <string>

#include "tools/server/analyst.h"
#include "tools/server/http_server.h"

namespace kalah {

// The answer to GET `target` (path and query string): at once, or a job for a pool.
Routed route(const std::string& target, Analyst& analyst);

// {"command": "serve", "error": MESSAGE}: the body of every error answer.
std::string error_json(const std::string& message);

}  // namespace kalah
