// in_place_test.cpp: the layer formats searched where they lie (2, db/value_blocks.h; 3,
// db/value_lines.h): the same values as format 1 in every layer of small databases of every
// variant, read whole or probed one board at a time; a file with any damaged block byte refused;
// every format converted to every other, also when killed midway.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "db/file_names.h"
#include "db/layer_file.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

std::vector<uint8_t> values_of(const LayerFile& f) {
  std::vector<uint8_t> v(f.header().boards);
  f.read_all(v.data());
  return v;
}

class InPlace : public ::testing::TestWithParam<uint32_t> {};
INSTANTIATE_TEST_SUITE_P(Formats, InPlace, ::testing::Values(2u, 3u),
                         [](const auto& info) { return "Format" + std::to_string(info.param); });

// Every variant of m = 1..8, up to a few seeds (more for small m): each format searched in place
// read whole, and probed board by board where it lies (after each order of prefetches), equals
// format 1.
TEST_P(InPlace, EveryLayerOfSmallDatabasesEqualsFormatOne) {
  for (int m = 1; m <= kMaxPits; ++m) {
    const int top = m <= 2 ? 16 : m <= 4 ? 9 : 5;
    for (const Rules& rules : test::all_variants(m)) {
      const test::TempDir now, old;
      test::build(now.str(), rules, top, 0, LayerFormat{GetParam()});
      test::build(old.str(), rules, top, 0, LayerFormat{1});
      for (int s = 1; s <= top; ++s) {
        const std::string name = layer_file_name(rules, s);
        LayerFile a(now.str(name), rules, s);
        const LayerFile b(old.str(name), rules, s);
        ASSERT_EQ(a.header().version, GetParam());
        ASSERT_TRUE(a.in_place());
        const std::vector<uint8_t> expected = values_of(b);
        ASSERT_EQ(values_of(a), expected) << name;
        for (uint64_t r = 0; r < expected.size(); ++r) {
          a.load_views_apart(r % 2);  // both prefetch orders (Database picks one by size)
          a.prefetch(r);
          a.prefetch_again(r, 1);
          a.prefetch_again(r, 2);
          ASSERT_EQ(a.value(r), expected[r]) << name << " rank " << r;
        }
      }
    }
  }
}

// A layer file whose block bytes are each damaged in turn: the open, the probe or the block read
// fails, never a value served.
TEST_P(InPlace, ALayerFileWithAnyBlockByteDamagedIsRefused) {
  const test::TempDir dir;
  const Rules rules{3, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  test::build(dir.str(), rules, 6, 0, LayerFormat{GetParam()});
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
TEST(Formats, ABuildConvertsLayersOfEveryOtherFormat) {
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

// A conversion killed (SIGKILL) while it rewrites a layer: the layers done are of the new
// format, the others of the old, none damaged; the next build finishes it, to the files a build
// from nothing writes.
TEST(Formats, AKilledConversionResumesToTheSameFiles) {
  const Rules rules{6, Capture::kEmpty, End::kImmediate, Remainder::kOwner};
  const int top = 18;
  const test::TempDir fresh, converted;
  test::build(fresh.str(), rules, top);
  test::build(converted.str(), rules, top, 0, LayerFormat{2});
  test::Process build(KALAH_EXE, {"build", "--db", converted.str(), "--max-seeds",
                                  std::to_string(top), "--capture", "empty", "--threads", "1"});
  ASSERT_TRUE(build.read_until("layer 15: format 2 rewritten")) << build.output();
  build.signal(SIGKILL);
  ASSERT_EQ(build.wait(), 128 + SIGKILL) << build.output();
  int old = 0;
  for (int s = 1; s <= top; ++s) {
    const LayerFile f(converted.str(layer_file_name(rules, s)), rules, s);  // none damaged
    old += f.header().version == 2;
  }
  EXPECT_GT(old, 0) << "killed too late to test";
  test::build(converted.str(), rules, top);
  EXPECT_TRUE(test::snapshot(fresh.str()) == test::snapshot(converted.str()));
}

}  // namespace
}  // namespace kalah
