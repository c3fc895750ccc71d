// analyst_test.cpp: what `kalah serve` answers apart from HTTP (tools/server/analyst.h): its cache
// of exact answers and its admission of searches.
#include "tools/server/analyst.h"

#include <gtest/gtest.h>

#include <future>

#include "tests/test_util.h"

namespace kalah {
namespace {

bool has(const std::string& json, const std::string& text) {
  return json.find(text) != std::string::npos;
}

// An analyst over a database of `rules` up to `top` seeds, built into dir.
AnalystOptions with_database(const test::TempDir& dir, const Rules& rules, int top) {
  test::build(dir.str(), rules, top);
  AnalystOptions o;
  o.dir = dir.str();
  return o;
}

// A repeated question is answered from the cache, marked so; the least recently used answer is
// the one dropped; bounds are never cached.
TEST(Analyst, CachesExactAnswersLeastRecentlyUsedFirst) {
  const test::TempDir dir;
  AnalystOptions o =
      with_database(dir, {4, Capture::kStandard, End::kImmediate, Remainder::kOwner}, 6);
  o.cache_entries = 2;
  Analyst analyst(o);
  ASSERT_EQ(analyst.databases().size(), 1u);
  const auto ask = [&](const std::string& position) {
    return analyst.analyse({{"position", position}});
  };
  const std::string a = "1,0,2,0/0,1,1,0/3,4", b = "0,2,0,1/1,0,0,3/0,1", c = "2,1,0,0/0,0,1,3/5,2";
  const std::string first = ask(a);
  EXPECT_TRUE(has(first, "\"source\": \"database\"")) << first;
  EXPECT_FALSE(has(first, "\"cached\"")) << first;
  EXPECT_TRUE(has(ask(a), "\"cached\": true"));
  ask(b);
  ask(a);  // a is now the most recently used, b the least
  ask(c);  // drops b
  EXPECT_TRUE(has(ask(a), "\"cached\": true"));
  EXPECT_FALSE(has(ask(b), "\"cached\"")) << "the least recently used answer was kept";

  // A search past its budget answers with bounds, and they are not cached.
  const std::map<std::string, std::string> big = {{"position", "6,6,6,6/6,6,6,6/0,0"},
                                                  {"budget_ms", "50"}};
  const std::string bounds = analyst.analyse(big);
  EXPECT_TRUE(has(bounds, "\"source\": \"bounds\"")) << bounds;
  EXPECT_FALSE(has(analyst.analyse(big), "\"cached\""));
}

// With one search slot taken, a second search waits at most its budget and answers with the
// bounds every position has, without searching (0 nodes); a database answer never waits.
TEST(Analyst, ASearchThatCannotStartAnswersWithinItsBudget) {
  const test::TempDir dir;
  AnalystOptions o =
      with_database(dir, {6, Capture::kStandard, End::kImmediate, Remainder::kOwner}, 4);
  o.max_searches = 1;
  Analyst analyst(o);
  auto busy = std::async(std::launch::async, [&] {
    return analyst.analyse({{"position", "6,6,6,6,6,6/6,6,6,6,6,6/0,0"}, {"budget_ms", "3000"}});
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the first holds the slot
  const auto t0 = std::chrono::steady_clock::now();
  const std::string waited =
      analyst.analyse({{"position", "5,5,5,5,5,5/5,5,5,5,5,5/0,0"}, {"budget_ms", "200"}});
  EXPECT_TRUE(has(waited, "\"source\": \"bounds\"")) << waited;
  EXPECT_TRUE(has(waited, "\"nodes\": 0,")) << waited;
  EXPECT_TRUE(has(waited, "\"lower\": -60, \"upper\": 60")) << waited;
  const std::string held = analyst.analyse({{"position", "1,0,0,0,0,0/0,0,0,0,0,1/0,0"}});
  EXPECT_TRUE(has(held, "\"source\": \"database\"")) << held;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(2000))
      << "an answer waited for the running search";
  EXPECT_TRUE(has(busy.get(), "\"interrupted\": true"));
}

}  // namespace
}  // namespace kalah
