// routes.cpp: what each URL of `kalah serve` answers (tools/server/routes.h).
#include "tools/server/routes.h"

#include <map>

#include "query/json_parts.h"
#include "query/levels.h"
#include "tools/server/book_explorer.h"

namespace kalah {

// The analysis board (tools/server/board.html and the style and scripts it loads), embedded by
// tools/server/CMakeLists.txt.
extern const char* const kBoardHtml;
extern const char* const kBoardCss;
extern const char* const kBoardJs;
extern const char* const kBoardDrawJs;
extern const char* const kBoardServerJs;
extern const char* const kBoardEngineJs;
extern const char* const kBoardReviewJs;
extern const char* const kFairStartsJson;

std::string error_json(const std::string& message) {
  return kalah_json("serve").add("error", message).str();
}

namespace {

std::string info_json(const Analyst& analyst) {
  return kalah_json("serve")
      .add("databases", analyst.databases())
      .add("answers", analyst.stores())
      .add("rules", rule_choices_json())
      .add("levels", levels_json())
      .str();
}

}  // namespace

// The board at / (its style and scripts beside it), the moves at /api/v1/moves (at once), kalah's
// move at /api/v1/move, the analysis at /api/v1/analyse (database answers on the fast pool,
// searches on theirs), JSON errors everywhere else.
Routed route(const std::string& target, Analyst& analyst) {
  const size_t q = target.find('?');
  const std::string path = target.substr(0, q);
  if (path == "/") return {Pool::kNone, {200, "text/html; charset=utf-8", kBoardHtml}, {}};
  static const std::map<std::string, std::pair<const char*, const char*>> kAssets = {
      {"/board.css", {"text/css; charset=utf-8", kBoardCss}},
      {"/board.js", {"text/javascript; charset=utf-8", kBoardJs}},
      {"/board_draw.js", {"text/javascript; charset=utf-8", kBoardDrawJs}},
      {"/board_server.js", {"text/javascript; charset=utf-8", kBoardServerJs}},
      {"/board_engine.js", {"text/javascript; charset=utf-8", kBoardEngineJs}},
      {"/board_review.js", {"text/javascript; charset=utf-8", kBoardReviewJs}},
      {"/fair_starts.json", {"application/json", kFairStartsJson}}};
  if (const auto asset = kAssets.find(path); asset != kAssets.end())
    return {Pool::kNone, {200, asset->second.first, asset->second.second}, {}};
  if (path == "/favicon.ico") return {Pool::kNone, {204, "image/x-icon", ""}, {}};  // none
  if (path == "/api/v1/info")
    return {Pool::kNone, {200, "application/json", info_json(analyst)}, {}};
  if (path != "/api/v1/analyse" && path != "/api/v1/moves" && path != "/api/v1/move" &&
      path != "/api/v1/progress" && path != "/api/v1/cancel" && path != "/api/v1/book")
    return {Pool::kNone, {404, "application/json", error_json("no such path: " + path)}, {}};
  try {
    if (path == "/api/v1/progress" || path == "/api/v1/cancel") {  // a lock and a lookup
      const auto params = query_parameters(q == std::string::npos ? "" : target.substr(q + 1));
      if (params.size() != 1 || !params.count("search"))
        throw std::invalid_argument(path + " takes one parameter, search");
      const std::string id = search_name(params);
      return {Pool::kNone,
              {200, "application/json",
               path == "/api/v1/progress" ? analyst.progress(id) : analyst.cancel(id)},
              {}};
    }
    const ServeRequest request =
        analyst.prepare(query_parameters(q == std::string::npos ? "" : target.substr(q + 1)));
    if (path == "/api/v1/moves")  // no search, no database: answered at once
      return {Pool::kNone,
              {200, "application/json", moves_json("serve", request.rules, request.position).str()},
              {}};
    if (path == "/api/v1/book")  // the book's records: a few file reads, no search
      return {Pool::kFast, {}, [&analyst, request](ClientLink&) {
                return HttpResponse{
                    200, "application/json",
                    book_json(request.rules, request.position, analyst.store_of(request.rules))};
              }};
    if (path == "/api/v1/move") {
      const bool search = analyst.needs_search(request);
      return {search ? Pool::kSearch : Pool::kFast,
              {},
              [&analyst, request, search](ClientLink& client) {
                if (search) run_in_background();
                return HttpResponse{200, "application/json", analyst.move(with(request, client))};
              }};
    }
    const bool search = analyst.needs_search(request) && !analyst.cached(request);
    return {
        search ? Pool::kSearch : Pool::kFast, {}, [&analyst, request, search](ClientLink& client) {
          if (search) run_in_background();
          return HttpResponse{200, "application/json", analyst.analyse(with(request, client))};
        }};
  } catch (const std::invalid_argument& e) {
    return {Pool::kNone, {400, "application/json", error_json(e.what())}, {}};
  }
}

}  // namespace kalah
