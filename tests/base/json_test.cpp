// json_test.cpp: every JSON document kalah writes is well-formed UTF-8 whatever the input
// (base/json.h, base/utf8.h), checked by an independent parser (tests/json_check.h).
#include "base/json.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "base/utf8.h"
#include "game/notation.h"
#include "query/json_parts.h"
#include "query/query.h"
#include "tests/json_check.h"

namespace kalah {
namespace {

using test::JsonCheck;

// Every string of up to three bytes drawn from those that make and break UTF-8 is quoted into
// valid JSON; well-formed UTF-8 passes through unchanged.
TEST(Json, AnyBytesQuoteToValidUtf8) {
  const std::string bytes = std::string("a\"\\\n\x01\x7f", 6) +
                            "\x80\xbf\xc0\xc2\xdf\xe0\xed\xef"
                            "\xf0\xf4\xf5\xff\xa0\x9f\x8f\x90";
  std::string s;
  for (const char a : bytes)
    for (const char b : bytes)
      for (const char c : bytes) {
        s = {a, b, c};
        const std::string json = JsonObject().add(s, s).str();
        ASSERT_TRUE(JsonCheck::valid(json)) << json;
      }
  for (const std::string ok : {"é", "€", "𝄞", "Kalah – 4×4"})
    EXPECT_EQ(json_quote(ok), "\"" + ok + "\"");
  EXPECT_EQ(json_quote("a\xff"
                       "b"),
            "\"a\\ufffdb\"");
  EXPECT_EQ(json_quote("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"") << "a surrogate";
  EXPECT_EQ(json_quote("\xe2\x82"), "\"\\ufffd\\ufffd\"") << "a cut character";
}

TEST(Json, Utf8Length) {
  EXPECT_EQ(utf8_length("a", 0), 1u);
  EXPECT_EQ(utf8_length("é", 0), 2u);
  EXPECT_EQ(utf8_length("€", 0), 3u);
  EXPECT_EQ(utf8_length("𝄞", 0), 4u);
  for (const std::string bad : {"\x80", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80",
                                "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xe2\x82"})
    EXPECT_EQ(utf8_length(bad, 0), 0u) << bad.size();
}

// Error messages echo input through printable_input: invalid bytes escaped, never cut inside a
// character, and the messages the server and query --json send are valid JSON.
TEST(Json, EchoedInputStaysValid) {
  EXPECT_EQ(printable_input("1,\xff/2"), "1,\\xff/2");
  EXPECT_EQ(printable_input("ééé", 3), "éé... (6 characters in all)");
  for (const std::string& input :
       {std::string("1,2\xff/3"), std::string("\xe2\x82\xac\xe2\x82"), std::string(2000, '\xc3')}) {
    try {
      parse_position(input);
      FAIL() << "parsed";
    } catch (const std::invalid_argument& e) {
      const std::string json =
          kalah_json("query").add("input", printable_input(input)).add("error", e.what()).str();
      EXPECT_TRUE(JsonCheck::valid(json)) << json;
    }
  }
}

// A stopped answer whose bounds meet says the value, whatever else was not finished.
TEST(Json, BoundsThatMeetAreTheValue) {
  Outcome o;
  o.rules = Rules{4};
  o.position = start_position(4, 3);
  o.stopped = StopReason::kDeadline;
  o.margin = {8, 8};
  const std::string met = outcome_json("solve", o).str();
  EXPECT_NE(met.find("\"interrupted\": true"), std::string::npos) << met;
  EXPECT_NE(met.find("\"value\": 8, \"result\": \"win\""), std::string::npos) << met;
  o.margin = {6, 8};
  EXPECT_EQ(outcome_json("solve", o).str().find("\"value\""), std::string::npos);
}

}  // namespace
}  // namespace kalah
