// cli_pie_test.cpp: `kalah solve --pie`, the pie rule on the command line, against plain solves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <string>

#include "tests/test_util.h"

namespace {

using kalah::test::kalah;
using kalah::test::Ran;

// Each opening's value is that of the position after it (solved without the pie rule, for the
// first player), the opponent swaps exactly when it is above 0, and the pie rule's value is the
// best opening's -|value|.
TEST(Cli, PieRuleValuesEqualThePositionsAfterEachOpening) {
  const std::string game = "solve --pits 3 --seeds 2";
  const Ran r = kalah(game + " --pie --json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"pie\": true"), std::string::npos) << r.out;
  const std::regex opening(
      "\\{\"turn\": \"(S:[0-9-]+)\", \"value\": (-?[0-9]+), \"swap\": (true|false), "
      "\"value_with_pie\": (-?[0-9]+)\\}");
  const std::regex value("\"value\": (-?[0-9]+),");
  const std::regex best_opening("\"best_opening\": \"(S:[0-9-]+)\"");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, value)) << r.out;
  const int pie_value = std::stoi(m[1]);
  ASSERT_TRUE(std::regex_search(r.out, m, best_opening)) << r.out;
  const std::string best = m[1];
  int openings = 0, best_with_pie = -1000;
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), opening);
       it != std::sregex_iterator(); ++it, ++openings) {
    const std::string turn = (*it)[1];
    const int v = std::stoi((*it)[2]), with_pie = std::stoi((*it)[4]);
    const Ran after = kalah(game + " --moves '" + turn + "' --json");  // pasted back as it came
    ASSERT_EQ(after.status, 0) << after.out;
    std::smatch a;
    ASSERT_TRUE(std::regex_search(after.out, a, value)) << after.out;
    const bool north = after.out.find("\"to_move\": \"North\"") != std::string::npos;
    EXPECT_EQ(v, north ? -std::stoi(a[1]) : std::stoi(a[1])) << turn;
    EXPECT_EQ((*it)[3] == "true", v > 0) << turn;
    EXPECT_EQ(with_pie, -std::abs(v)) << turn;
    if (turn == best) {
      EXPECT_EQ(with_pie, pie_value);
    }
    best_with_pie = std::max(best_with_pie, with_pie);
  }
  EXPECT_EQ(openings, 4) << r.out;  // pits 1, 2-1, 2-3 and 3 (2 ends in the store)
  EXPECT_EQ(pie_value, best_with_pie);
}

// The pie rule's value alone: the full pie rule's value, whatever the threads; the openings
// shown no better keep bounds.
TEST(Cli, PieRuleValueOnly) {
  const auto field = [](const std::string& out, const char* key) {
    std::string found;
    const size_t at = out.find(key);
    if (at != std::string::npos) found = out.substr(at, out.find(',', at) - at);
    return found;
  };
  const std::string game = "solve --pits 5 --seeds 3 --no-db --json --pie";
  const Ran full = kalah(game);
  ASSERT_EQ(full.status, 0) << full.out;
  for (const char* threads : {"1", "2", "8"}) {
    const Ran quick = kalah(game + " --value-only --threads " + threads);
    ASSERT_EQ(quick.status, 0) << quick.out;
    EXPECT_EQ(field(quick.out, "\"value\": "), field(full.out, "\"value\": ")) << quick.out;
    EXPECT_NE(quick.out.find("\"best_opening\": \""), std::string::npos) << quick.out;
    EXPECT_NE(quick.out.find("\"value_only\": true"), std::string::npos) << quick.out;
    EXPECT_NE(quick.out.find("\"upper\": "), std::string::npos) << quick.out;
  }
}

}  // namespace
