// layer_codec_test.cpp: one suite every layer codec (db/layer_codec.h) passes: blocks of every
// shape coded within the codec's bound, checked sound and decoded to the values (through `at`
// too where the codec probes without views); a damaged byte found by its check, or (format 1,
// whose frames a few bits can change without changing a value: the file's checksum covers them)
// harmless.
#include "db/layer_codec.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

namespace kalah {
namespace {

class Codecs : public ::testing::TestWithParam<uint32_t> {};

// Values of a layer's shape: runs of one value (as long endgames have) and noise.
std::vector<uint8_t> values_of(std::mt19937_64& rng, uint64_t n, int symbols, int runs) {
  std::vector<uint8_t> v(n);
  uint8_t x = 0;
  for (uint64_t i = 0; i < n; ++i) {
    if (rng() % 100 < static_cast<uint64_t>(runs)) x = static_cast<uint8_t>(rng() % symbols);
    v[i] = x;
  }
  return v;
}

TEST_P(Codecs, EveryShapeRoundTripsWithinItsBound) {
  const LayerCodec& c = layer_codec(GetParam());
  EXPECT_EQ(c.version, GetParam());
  EXPECT_EQ(find_codec(GetParam()), &c);
  ASSERT_TRUE(c.encode && c.max_size && c.check && c.decode);
  EXPECT_EQ(c.views || !c.in_place, c.at == nullptr) << "a probe without views needs `at`";
  std::mt19937_64 rng(GetParam());
  for (uint64_t n : {uint64_t{1}, uint64_t{31}, uint64_t{1000}, uint64_t{65536}})
    for (int symbols : {2, 9, 69})
      for (int runs : {0, 5, 100}) {
        const std::vector<uint8_t> v = values_of(rng, n, symbols, runs);
        const std::string block = c.encode(v.data(), n, symbols, 7, 1);
        const auto* p = reinterpret_cast<const uint8_t*>(block.data());
        const std::string where = "n=" + std::to_string(n) + " symbols=" + std::to_string(symbols) +
                                  " runs=" + std::to_string(runs);
        ASSERT_LE(block.size(), c.max_size(n, symbols)) << where;
        ASSERT_EQ(c.check(p, block.size(), n, symbols, 7), "") << where;
        std::vector<uint8_t> out(n, 0xEE);
        c.decode(p, block.size(), n, symbols, out.data());
        ASSERT_EQ(out, v) << where;
        if (c.at) {
          for (uint64_t i = 0; i < n; i += 1 + n / 97)
            ASSERT_EQ(c.at(p, block.size(), n, symbols, i), v[i]) << where << " i=" << i;
        }
      }
}

TEST_P(Codecs, AnyDamagedByteIsFound) {
  const LayerCodec& c = layer_codec(GetParam());
  std::mt19937_64 rng(100 + GetParam());
  const uint64_t n = 5000;
  const std::vector<uint8_t> v = values_of(rng, n, 21, 10);
  const std::string block = c.encode(v.data(), n, 21, 3, 1);
  int unseen = 0;
  for (size_t at = 0; at < block.size(); at += 1 + block.size() / 300) {
    std::string damaged = block;
    damaged[at] = static_cast<char>(damaged[at] ^ (1 << (at % 8)));
    const auto* p = reinterpret_cast<const uint8_t*>(damaged.data());
    if (c.check(p, damaged.size(), n, 21, 3).empty()) {
      ++unseen;
      EXPECT_FALSE(c.in_place) << "byte " << at << " of " << block.size();
      std::vector<uint8_t> out(n);
      c.decode(p, damaged.size(), n, 21, out.data());
      EXPECT_EQ(out, v) << "byte " << at << " changed a value unseen";
    }
  }
  EXPECT_LT(unseen, 30) << "of 300 damaged bytes";
  // Another block's number is damage too where the number is in the checksum (formats 2, 3).
  if (c.in_place) {
    EXPECT_NE(c.check(reinterpret_cast<const uint8_t*>(block.data()), block.size(), n, 21, 4), "");
  }
}

TEST(Codecs, TheVersionsAreKnownInOnePlace) {
  for (uint32_t v = kOldestFormat; v <= kNewestFormat; ++v) EXPECT_NE(find_codec(v), nullptr);
  EXPECT_EQ(find_codec(0), nullptr);
  EXPECT_EQ(find_codec(kNewestFormat + 1), nullptr);
  EXPECT_THROW(layer_codec(kNewestFormat + 1), std::invalid_argument);
  EXPECT_TRUE(find_codec(kFormatVersion)->in_place) << "kalah writes a format searched in place";
}

INSTANTIATE_TEST_SUITE_P(EveryFormat, Codecs, ::testing::Range(kOldestFormat, kNewestFormat + 1),
                         [](const auto& info) { return "Format" + std::to_string(info.param); });

}  // namespace
}  // namespace kalah
