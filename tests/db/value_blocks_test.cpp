// value_blocks_test.cpp: format 2's value blocks (db/value_blocks.h): blocks of every shape read
// whole and probed; any damaged byte of a block found; a forged code refused (layer files of it:
// in_place_test.cpp).
#include "db/value_blocks.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "base/checksum.h"
#include "base/le_bytes.h"

namespace kalah {
namespace {

// Blocks of many shapes: every size around the mini-block and span edges, alphabets of 1 to 255
// codes, skewed and uniform values (escapes included), each decoded whole and probed.
TEST(ValueBlocks, RoundTripsEveryShape) {
  std::mt19937_64 rng(7);
  for (uint64_t n : {1, 2, 63, 64, 65, 1023, 1024, 1025, 4097, 65536})
    for (int symbols : {1, 2, 23, 69, 255})
      for (bool skewed : {true, false}) {
        std::vector<uint8_t> v(n);
        for (auto& x : v)
          x = static_cast<uint8_t>(skewed ? std::min<uint64_t>(rng() % 4 * (rng() % 3), symbols - 1)
                                          : rng() % symbols);
        const std::string block = value_blocks::encode(v.data(), n, symbols, 9);
        const auto* p = reinterpret_cast<const uint8_t*>(block.data());
        ASSERT_LE(block.size(), value_blocks::max_size(n, symbols));
        ASSERT_EQ(value_blocks::View::check(p, block.size(), n, symbols, 9), "");
        const value_blocks::View view(p, block.size(), n, symbols);
        std::vector<uint8_t> out(n);
        view.decode(out.data());
        ASSERT_EQ(out, v) << n << " values of " << symbols;
        for (uint64_t i = 0; i < n; i += 1 + n / 300) ASSERT_EQ(view.at(i), v[i]);
      }
}

// A block whose every byte is changed in turn, or which is read as another block, fails.
TEST(ValueBlocks, AnyDamagedByteOrMovedBlockIsFound) {
  std::mt19937_64 rng(3);
  std::vector<uint8_t> v(3000);
  for (auto& x : v) x = static_cast<uint8_t>(rng() % 5 == 0 ? rng() % 11 : 4);
  std::string block = value_blocks::encode(v.data(), v.size(), 11, 5);
  const auto* p = reinterpret_cast<const uint8_t*>(block.data());
  EXPECT_EQ(value_blocks::View::check(p, block.size(), v.size(), 11, 5), "");
  EXPECT_NE(value_blocks::View::check(p, block.size(), v.size(), 11, 6), "");
  for (size_t i = 0; i < block.size(); ++i)
    for (unsigned char flip : {0x01, 0x80, 0xFF}) {
      block[i] = static_cast<char>(block[i] ^ flip);
      EXPECT_NE(value_blocks::View::check(p, block.size(), v.size(), 11, 5), "")
          << "byte " << i << " ^ " << int(flip);
      block[i] = static_cast<char>(block[i] ^ flip);
    }
}

// A block forged with a correct checksum but a code its layer cannot have in its table.
TEST(ValueBlocks, AForgedCodeIsRefused) {
  std::vector<uint8_t> v(100, 3);
  std::string block = value_blocks::encode(v.data(), v.size(), 5, 0);
  auto* p = reinterpret_cast<uint8_t*>(block.data());
  // The first context's list, after one span's offsets and the list offsets: just the value 3.
  const size_t lists = 14 + 68 + 2 * (5 + 2);
  ASSERT_EQ(p[lists], 3);
  p[lists] = 200;
  put_le(p, value_blocks::checksum(p, block.size(), 0), 8);
  EXPECT_NE(value_blocks::View::check(p, block.size(), v.size(), 5, 0).find("the code 200"),
            std::string::npos);
}

}  // namespace
}  // namespace kalah
