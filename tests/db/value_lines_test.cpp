// value_lines_test.cpp: format 3's line blocks (db/value_lines.h): blocks of every shape read
// whole and probed; any damaged byte of a block found; forged tables and lines refused (layer
// files of it: in_place_test.cpp).
#include "db/value_lines.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/le_bytes.h"
#include "db/value_blocks.h"

namespace kalah {
namespace {

const uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// A view of block b of n values, its tables in room of its own.
struct OwnView {
  OwnView(const std::string& b, uint64_t n, int symbols)
      : room((value_lines::View::tables_size(b.size(), n, symbols) + 1) / 2),
        view(bytes(b), b.size(), n, symbols, reinterpret_cast<uint8_t*>(room.data())) {}
  std::vector<uint16_t> room;
  value_lines::View view;
};

// Blocks of many shapes: sizes from one value to a full block, alphabets of 1 to 255 codes,
// constant, skewed and uniform values (escapes included), parts of 1 to 256 values, each decoded
// whole and probed.
TEST(ValueLines, RoundTripsEveryShape) {
  std::mt19937_64 rng(7);
  for (uint64_t n : {1, 2, 3, 63, 64, 65, 1000, 4097, 65536})
    for (int symbols : {1, 2, 23, 69, 255})
      for (int kind : {0, 1, 2})
        for (int g : {0, 3, 5, 8}) {
          std::vector<uint8_t> v(n);
          for (auto& x : v)
            x = static_cast<uint8_t>(kind == 0 ? symbols / 2
                                     : kind == 1
                                         ? std::min<uint64_t>(rng() % 4 * (rng() % 3), symbols - 1)
                                         : rng() % symbols);
          const std::string block = value_lines::encode(v.data(), n, symbols, 9, g);
          ASSERT_LE(block.size(), value_lines::max_size(n, symbols));
          ASSERT_EQ(block.size() % value_lines::kLineBytes, 0u);
          ASSERT_EQ(value_lines::View::check(bytes(block), block.size(), n, symbols, 9), "");
          const OwnView own(block, n, symbols);
          const value_lines::View& view = own.view;
          std::vector<uint8_t> out(n);
          view.decode(out.data());
          ASSERT_EQ(out, v) << n << " values of " << symbols << ", parts of 2^" << g;
          for (uint64_t i = 0; i < n; i += 1 + n / 500) ASSERT_EQ(view.at(i), v[i]) << i;
          ASSERT_EQ(view.at(n - 1), v[n - 1]);
        }
}

// A block whose every byte is changed in turn, or which is read as another block, fails.
TEST(ValueLines, AnyDamagedByteOrMovedBlockIsFound) {
  std::mt19937_64 rng(3);
  std::vector<uint8_t> v(3000);
  for (auto& x : v) x = static_cast<uint8_t>(rng() % 5 == 0 ? rng() % 11 : 4);
  std::string block = value_lines::encode(v.data(), v.size(), 11, 5);
  const uint8_t* p = bytes(block);
  EXPECT_EQ(value_lines::View::check(p, block.size(), v.size(), 11, 5), "");
  EXPECT_NE(value_lines::View::check(p, block.size(), v.size(), 11, 6), "");
  EXPECT_NE(value_lines::View::check(p, block.size() - 64, v.size(), 11, 5), "");
  for (size_t i = 0; i < block.size(); ++i)
    for (unsigned char flip : {0x01, 0x80, 0xFF}) {
      block[i] = static_cast<char>(block[i] ^ flip);
      EXPECT_NE(value_lines::View::check(p, block.size(), v.size(), 11, 5), "")
          << "byte " << i << " ^ " << int(flip);
      block[i] = static_cast<char>(block[i] ^ flip);
    }
}

// Bytes forged with a correct checksum: a center no value has and a bad line index are refused
// by the check and by the view; lines of any bytes decode to values of the layer or throw, never
// reading outside the block (the sanitizers' run checks the reads).
TEST(ValueLines, ForgedTablesAndLinesAreRefused) {
  std::vector<uint8_t> v(5000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(i / 7 % 5);
  const std::string good = value_lines::encode(v.data(), v.size(), 5, 0);
  auto forge = [&](size_t at, uint8_t byte) {
    std::string b = good;
    b[at] = static_cast<char>(byte);
    auto* p = reinterpret_cast<unsigned char*>(b.data());
    put_le(p, value_blocks::checksum(p, b.size(), 0), 8);
    return b;
  };
  // A center no value has; line 0 not at 0 (the index after 6 contexts' tables).
  const std::string center = forge(12, 200), index = forge(12 + 6 + 1, 1);
  EXPECT_NE(value_lines::View::check(bytes(center), center.size(), v.size(), 5, 0).find("center"),
            std::string::npos);
  EXPECT_THROW(OwnView(center, v.size(), 5), std::runtime_error);
  EXPECT_NE(value_lines::View::check(bytes(index), index.size(), v.size(), 5, 0).find("index"),
            std::string::npos);
  EXPECT_THROW(OwnView(index, v.size(), 5), std::runtime_error);
  std::mt19937_64 rng(11);
  std::string noise = good;
  const uint64_t lines = get_le(bytes(good) + 10, 2);
  for (size_t i = noise.size() - 64 * lines; i < noise.size(); ++i)
    noise[i] = static_cast<char>(rng());
  const OwnView own(noise, v.size(), 5);
  const value_lines::View& view = own.view;
  for (uint64_t i = 0; i < v.size(); ++i) try {
      EXPECT_LT(view.at(i), 5);
    } catch (const std::runtime_error&) {
    }
}

}  // namespace
}  // namespace kalah
