// value_lines_test.cpp: format 3's line blocks (db/value_lines.h): the same values as format 1
// in every layer of small databases of every variant, read whole or probed one board at a time;
// any damaged byte of a block found; forged tables and lines refused; formats converted.
#include "db/value_lines.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/le_bytes.h"
#include "db/file_names.h"
#include "db/layer_file.h"
#include "db/value_blocks.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

std::vector<uint8_t> values_of(const LayerFile& f) {
  std::vector<uint8_t> v(f.header().boards);
  f.read_all(v.data());
  return v;
}

const uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// Every variant of m = 1..8, up to a few seeds (more for small m): format 3 read whole, and
// probed board by board where it lies, equals format 1.
TEST(ValueLines, EveryLayerOfSmallDatabasesEqualsFormatOne) {
  for (int m = 1; m <= kMaxPits; ++m) {
    const int top = m <= 2 ? 16 : m <= 4 ? 9 : 5;
    for (const Rules& rules : test::all_variants(m)) {
      const test::TempDir now, old;
      test::build(now.str(), rules, top, 0, LayerFormat{3});
      test::build(old.str(), rules, top, 0, LayerFormat{1});
      for (int s = 1; s <= top; ++s) {
        const std::string name = layer_file_name(rules, s);
        const LayerFile a(now.str(name), rules, s), b(old.str(name), rules, s);
        ASSERT_EQ(a.header().version, 3u);
        ASSERT_TRUE(a.in_place());
        const std::vector<uint8_t> expected = values_of(b);
        ASSERT_EQ(values_of(a), expected) << name;
        for (uint64_t r = 0; r < expected.size(); ++r) {
          a.prefetch(r);
          a.prefetch_again(r);
          ASSERT_EQ(a.value(r), expected[r]) << name << " rank " << r;
        }
      }
    }
  }
}

// Blocks of many shapes: sizes from one value to a full block, alphabets of 1 to 255 codes,
// constant, skewed and uniform values (escapes included), 1, 2 and 4 parts a line, each decoded
// whole and probed.
TEST(ValueLines, RoundTripsEveryShape) {
  std::mt19937_64 rng(7);
  for (uint64_t n : {1, 2, 3, 63, 64, 65, 1000, 4097, 65536})
    for (int symbols : {1, 2, 23, 69, 255})
      for (int kind : {0, 1, 2})
        for (int parts : {1, 2, 4}) {
          std::vector<uint8_t> v(n);
          for (auto& x : v)
            x = static_cast<uint8_t>(kind == 0 ? symbols / 2
                                     : kind == 1
                                         ? std::min<uint64_t>(rng() % 4 * (rng() % 3), symbols - 1)
                                         : rng() % symbols);
          const std::string block = value_lines::encode(v.data(), n, symbols, 9, parts);
          ASSERT_LE(block.size(), value_lines::max_size(n, symbols));
          ASSERT_EQ(block.size() % value_lines::kLineBytes, 0u);
          ASSERT_EQ(value_lines::View::check(bytes(block), block.size(), n, symbols, 9), "");
          const value_lines::View view(bytes(block), block.size(), n, symbols);
          std::vector<uint8_t> out(n);
          view.decode(out.data());
          ASSERT_EQ(out, v) << n << " values of " << symbols << ", " << parts << " parts";
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
  const std::string center = forge(12, 200), index = forge(12 + 5 + 1, 1);  // line 0 not at 0
  EXPECT_NE(value_lines::View::check(bytes(center), center.size(), v.size(), 5, 0).find("center"),
            std::string::npos);
  EXPECT_THROW(value_lines::View(bytes(center), center.size(), v.size(), 5), std::runtime_error);
  EXPECT_NE(value_lines::View::check(bytes(index), index.size(), v.size(), 5, 0).find("index"),
            std::string::npos);
  EXPECT_THROW(value_lines::View(bytes(index), index.size(), v.size(), 5), std::runtime_error);
  std::mt19937_64 rng(11);
  std::string noise = good;
  const uint64_t lines = get_le(bytes(good) + 10, 2);
  for (size_t i = noise.size() - 64 * lines; i < noise.size(); ++i)
    noise[i] = static_cast<char>(rng());
  const value_lines::View view(bytes(noise), noise.size(), v.size(), 5);
  for (uint64_t i = 0; i < v.size(); ++i) try {
      EXPECT_LT(view.at(i), 5);
    } catch (const std::runtime_error&) {
    }
}

// A layer file of format 3 whose block bytes are each damaged in turn: the open, the probe or
// the block read fails, never a value served.
TEST(ValueLines, ALayerFileWithAnyBlockByteDamagedIsRefused) {
  const test::TempDir dir;
  const Rules rules{3, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  test::build(dir.str(), rules, 6, 0, LayerFormat{3});
  const std::string path = dir.str(layer_file_name(rules, 6));
  const std::string original = test::read_file(path);
  const uint64_t index_at = LayerFile(path, rules, 6).header().index_offset;
  for (uint64_t i = kHeaderSize; i < index_at; ++i) {
    std::string damaged = original;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x10);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << damaged;
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

// A build over a database of another format rewrites every layer in its own: the files are then
// those a build from nothing writes, every way between formats 1, 2 and 3.
TEST(ValueLines, ABuildConvertsLayersOfEveryOtherFormat) {
  const Rules rules{4, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  std::vector<std::map<std::string, std::string>> fresh;
  std::vector<test::TempDir> dirs(3);
  for (uint32_t f = 1; f <= 3; ++f) {
    test::build(dirs[f - 1].str(), rules, 9, 0, LayerFormat{f});
    fresh.push_back(test::snapshot(dirs[f - 1].str()));
  }
  for (uint32_t from = 1; from <= 3; ++from)
    for (uint32_t to = 1; to <= 3; ++to) {
      if (from == to) continue;
      const test::TempDir d;
      test::build(d.str(), rules, 9, 0, LayerFormat{from});
      test::build(d.str(), rules, 9, 0, LayerFormat{to});
      EXPECT_EQ(test::snapshot(d.str()), fresh[to - 1]) << from << " to " << to;
    }
}

}  // namespace
}  // namespace kalah
