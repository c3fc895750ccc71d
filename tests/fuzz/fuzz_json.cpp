// fuzz_json.cpp: libFuzzer target for the JSON writer and what feeds it input (base/json.h,
// printable_input, parse_position's messages): whatever the bytes, every document is one valid
// JSON value in well-formed UTF-8 (tests/json_check.h, an independent parser).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "base/json.h"
#include "game/notation.h"
#include "query/json_parts.h"
#include "tests/json_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string half = input.substr(0, size / 2);
  std::string message;
  try {
    kalah::parse_position(input);
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  const std::string json = kalah::kalah_json("fuzz")
                               .add(half, input.substr(size / 2))
                               .add("input", kalah::printable_input(input))
                               .add("error", message)
                               .add("list", std::vector<std::string>{half, input})
                               .str();
  if (!kalah::test::JsonCheck::valid(json)) std::abort();
  return 0;
}
