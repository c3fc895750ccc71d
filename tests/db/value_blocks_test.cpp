// value_blocks_test.cpp: format 2's value blocks (db/value_blocks.h): the same values as format
// 1 in every layer of small databases of every variant, read whole or probed one board at a
// time; any damaged byte of a block found; a forged code refused; either format converted.
#include "db/value_blocks.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "base/checksum.h"
#include "base/le_bytes.h"
#include "db/file_names.h"
#include "db/layer_file.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::vector<uint8_t> values_of(const LayerFile& f) {
  std::vector<uint8_t> v(f.header().boards);
  f.read_all(v.data());
  return v;
}

// Every variant of m = 1..8, up to a few seeds (more for small m): format 2 read whole, and
// probed board by board where it lies, equals format 1.
TEST(ValueBlocks, EveryLayerOfSmallDatabasesEqualsFormatOne) {
  for (int m = 1; m <= kMaxPits; ++m) {
    const int top = m <= 2 ? 16 : m <= 4 ? 9 : 5;
    for (const Rules& rules : test::all_variants(m)) {
      const test::TempDir now, old;
      test::build(now.str(), rules, top);
      test::build(old.str(), rules, top, 0, LayerFormat{1});
      for (int s = 1; s <= top; ++s) {
        const std::string name = layer_file_name(rules, s);
        const LayerFile a(now.str(name), rules, s), b(old.str(name), rules, s);
        ASSERT_EQ(a.header().version, 2u);
        ASSERT_EQ(b.header().version, 1u);
        const std::vector<uint8_t> expected = values_of(b);
        ASSERT_EQ(values_of(a), expected) << name;
        for (uint64_t r = 0; r < expected.size(); ++r)
          ASSERT_EQ(a.value(r), expected[r]) << name << " rank " << r;
      }
    }
  }
}

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

// A layer file of format 2 whose block bytes are each damaged in turn: the open, the probe or
// the block read fails, never a value served.
TEST(ValueBlocks, ALayerFileWithAnyBlockByteDamagedIsRefused) {
  const test::TempDir dir;
  const Rules rules{3, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  test::build(dir.str(), rules, 6);
  const std::string path = dir.str(layer_file_name(rules, 6));
  const std::string original = test::read_file(path);
  const uint64_t index_at = LayerFile(path, rules, 6).header().index_offset;
  for (uint64_t i = kHeaderSize; i < index_at; ++i) {
    std::string damaged = original;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x10);
    write_file(path, damaged);
    EXPECT_THROW(
        {
          const LayerFile f(path, rules, 6);
          f.value(0);
        },
        DatabaseError)
        << "byte " << i;
    EXPECT_THROW(
        {
          const LayerFile f(path, rules, 6);
          std::vector<uint8_t> out(f.header().boards);
          f.read_all(out.data());
        },
        DatabaseError)
        << "byte " << i;
  }
}

// A build over a database of the other format rewrites every layer in its own: the files are
// then those a build from nothing writes, both ways.
TEST(ValueBlocks, ABuildConvertsLayersOfTheOtherFormat) {
  const Rules rules{4, Capture::kEmpty, End::kImmediate, Remainder::kOwner};
  const test::TempDir now, old, converted;
  test::build(now.str(), rules, 9);
  test::build(old.str(), rules, 9, 0, LayerFormat{1});
  test::build(converted.str(), rules, 9, 0, LayerFormat{1});
  test::build(converted.str(), rules, 9);
  EXPECT_EQ(test::snapshot(converted.str()), test::snapshot(now.str()));
  test::build(converted.str(), rules, 9, 0, LayerFormat{1});
  EXPECT_EQ(test::snapshot(converted.str()), test::snapshot(old.str()));
}

}  // namespace
}  // namespace kalah
