// checksum_test.cpp: base/checksum.h's hash is the files' format: pinned to values computed by
// its first (byte-at-a-time) implementation, and the same whatever the split of its input.
#include "base/checksum.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace kalah {
namespace {

TEST(Checksum, PinnedValuesAndAnySplit) {
  std::vector<unsigned char> b(1000);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<unsigned char>(i * 7 + 3);
  const std::pair<size_t, const char*> pinned[] = {
      {0, "9353dfc8a195f3e2"}, {1, "ecd29178545cf531"},  {7, "4c83ca51564c1985"},
      {8, "7210c02a18620475"}, {9, "2123ee0c5e9e20f9"},  {63, "5a731d2a07f5f5e6"},
      {1000, "bb9812c669a8f591"}};
  for (const auto& [n, hex] : pinned) EXPECT_EQ(to_hex(Checksum::of(b.data(), n)), hex) << n;
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    Checksum c;
    for (size_t at = 0; at < b.size();) {
      const size_t take = std::min<size_t>(b.size() - at, rng() % 20);
      c.update(b.data() + at, take);
      at += take;
    }
    ASSERT_EQ(c.digest(), Checksum::of(b.data(), b.size())) << "trial " << trial;
  }
}

}  // namespace
}  // namespace kalah
