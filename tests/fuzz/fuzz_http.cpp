// fuzz_http.cpp: libFuzzer target for what `kalah serve` makes of a request target: the query
// string's parameters (tools/server/http_server.h) and their checking (Analyst::prepare). Whatever
// the bytes: nothing but std::invalid_argument is thrown, and the error answer is valid JSON.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "query/json_parts.h"
#include "tests/json_check.h"
#include "tools/server/analyst.h"
#include "tools/server/http_server.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static kalah::Analyst analyst([] {
    kalah::AnalystOptions o;
    o.dir = "/nonexistent/kalah-fuzz";  // no databases: nothing is answered, only checked
    return o;
  }());
  const std::string query(reinterpret_cast<const char*>(data), size);
  try {
    const kalah::ServeRequest r = analyst.prepare(kalah::query_parameters(query));
    if (r.rules.pits < 1 || r.rules.pits > kalah::kMaxPits) std::abort();
  } catch (const std::invalid_argument& e) {
    const std::string json = kalah::kalah_json("serve").add("error", e.what()).str();
    if (!kalah::test::JsonCheck::valid(json)) std::abort();
  }
  return 0;
}
