// determinism_test.cpp: the same bytes from 1 and 2 threads, and after a build killed mid-way.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdio>
#include <filesystem>

#include "db/file_names.h"
#include "retrograde/builder.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

TEST(Determinism, OneAndTwoThreadsWriteIdenticalFiles) {
  const Rules rules{5, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  test::TempDir one, two;
  test::build(one.str(), rules, 12, 1);
  test::build(two.str(), rules, 12, 2);
  const auto a = test::snapshot(one.str()), b = test::snapshot(two.str());
  EXPECT_EQ(a.size(), 12u);
  EXPECT_TRUE(a == b) << "builds with 1 and 2 threads differ";
}

TEST(Determinism, KilledBuildResumesToIdenticalFiles) {
  const Rules rules{6, Capture::kEmpty, End::kImmediate, Remainder::kOwner};
  const int top = 15;
  test::TempDir reference, killed;
  test::build(reference.str(), rules, top);

  // The real executable, killed as soon as it reports layer top-2 done: it is then computing
  // layer top-1 (7.7 million boards), so layers top-1 and top are lost and must be rebuilt.
  test::Process build(KALAH_EXE, {"build", "--db", killed.str(), "--max-seeds", std::to_string(top),
                                  "--capture", "empty", "--threads", "1"});
  char started[16];  // the line of layer top-2 ended and layer top-1's began ("%5d " per layer)
  std::snprintf(started, sizeof started, "\n%5d ", top - 1);
  ASSERT_TRUE(build.read_until(started)) << build.output();
  build.signal(SIGKILL);
  ASSERT_EQ(build.wait(), 128 + SIGKILL) << build.output();
  EXPECT_FALSE(std::filesystem::exists(killed.str(layer_file_name(rules, top - 1))))
      << "killed too late to test";

  test::build(killed.str(), rules, top);
  EXPECT_TRUE(test::snapshot(reference.str()) == test::snapshot(killed.str()));
}

}  // namespace
}  // namespace kalah
