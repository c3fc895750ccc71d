// layer_file_test.cpp: layer file names, and damaged, truncated or mismatched files refused.
#include "db/layer_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>

#include "db/database.h"
#include "db/file_names.h"
#include "tests/oracle.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;

TEST(FileNames, EveryVariantRoundTrips) {
  for (int m = 1; m <= kMaxPits; ++m)
    for (const Rules& rules : test::all_variants(m))
      for (int s : {1, 9, 10, 254}) {
        const auto parsed = parse_layer_file_name(layer_file_name(rules, s));
        ASSERT_TRUE(parsed) << layer_file_name(rules, s);
        EXPECT_EQ(parsed->rules, rules);
        EXPECT_EQ(parsed->seeds, s);
      }
}

TEST(FileNames, OnlyCanonicalNamesAreLayers) {
  for (const char* name :
       {"kalah-m6-empty-immediate-owner-s05.kdb", "kalah-m6-empty-immediate-owner-s+5.kdb",
        "kalah-m6-empty-immediate-owner-s5.kdb.tmp", "kalah-m9-empty-immediate-owner-s5.kdb",
        "kalah-m6-empty-immediate-s5.kdb", "kalah-m6-empty-on-turn-owner-s0.kdb",
        "kalah-m6-empty-immediate-owner-s.kdb", "kalah-m6-empty-immediate-owner-", "kalah-m",
        "kalah-m06-empty-immediate-owner-s5.kdb", "kalah-m6-Empty-immediate-owner-s5.kdb"})
    EXPECT_FALSE(parse_layer_file_name(name)) << name;
  EXPECT_TRUE(parse_layer_file_name("kalah-m6-empty-on-turn-discard-s12.kdb"));
}

class Damage : public ::testing::Test {
 protected:
  void SetUp() override { test::build(dir_.str(), rules_, 9); }
  std::string path(int s) const { return layer_path(dir_.str(), rules_, s); }

  // Either open or the first probe of the damaged layer must refuse, naming the file.
  void expect_refused(int s, const std::string& what) {
    const std::string name = layer_file_name(rules_, s);
    try {
      const Database db(dir_.str(), rules_);
      Board b = db.ranker().first(s);
      do db.probe(b);
      while (db.ranker().next(b));
      ADD_FAILURE() << what << ": damage not noticed";
    } catch (const DatabaseError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << what << ": " << e.what();
    }
    EXPECT_THROW(LayerFile(path(s), rules_, s).check_body(), DatabaseError) << what;
  }

  test::TempDir dir_;
  const Rules rules_{4, Capture::kStandard, End::kImmediate, Remainder::kOwner};
};

TEST_F(Damage, FlippedBytesAnywhereAreRefused) {
  const int s = 9;
  const std::string original = test::read_file(path(s));
  const LayerHeader h = LayerFile(path(s), rules_, s).header();
  std::vector<std::pair<uint64_t, std::string>> spots = {
      {0, "magic"},
      {13, "rules"},
      {16, "layer"},
      {24, "board count"},
      {60, "reserved"},
      {70, "body checksum"},
      {h.index_offset, "first index entry"},
      {h.file_size - 1, "last index byte"},
      {kHeaderSize, "first block's frame header"}};
  std::mt19937_64 rng(99);
  for (int i = 0; i < 8; ++i)
    spots.push_back({kHeaderSize + rng() % (h.index_offset - kHeaderSize), "a block"});
  for (const auto& [offset, what] : spots) {
    std::string bad = original;
    bad[offset] = static_cast<char>(bad[offset] ^ 0x10);
    std::ofstream(path(s), std::ios::binary | std::ios::trunc) << bad;
    expect_refused(s, what + " at " + std::to_string(offset));
  }
  std::ofstream(path(s), std::ios::binary | std::ios::trunc) << original;
  EXPECT_NO_THROW(LayerFile(path(s), rules_, s).check_body());
}

TEST_F(Damage, TruncatedFileIsRefused) {
  const std::string original = test::read_file(path(7));
  std::ofstream(path(7), std::ios::binary | std::ios::trunc)
      << original.substr(0, original.size() - 3);
  expect_refused(7, "truncated");
}

TEST_F(Damage, MissingMiddleLayerIsRefused) {
  fs::remove(path(5));
  try {
    const Database db(dir_.str(), rules_);
    ADD_FAILURE() << "a database with a gap was opened";
  } catch (const DatabaseError& e) {
    EXPECT_NE(std::string(e.what()).find("layer 5"), std::string::npos) << e.what();
  }
}

TEST_F(Damage, WrongVariantOrLayerIsRefused) {
  fs::copy_file(path(4), dir_.str("other"));
  EXPECT_THROW(LayerFile(dir_.str("other"), rules_, 5), DatabaseError);
  Rules empty = rules_;
  empty.capture = Capture::kEmpty;
  EXPECT_THROW(LayerFile(dir_.str("other"), empty, 4), DatabaseError);
  // No files of that variant: the caller asked for rules the directory does not hold.
  EXPECT_THROW(Database(dir_.str(), empty), std::invalid_argument);
}

// A FIFO at a layer's name (a trap, or a symbolic link to one) is refused at once, not waited on.
TEST_F(Damage, AFifoAtALayersNameIsRefusedAtOnce) {
  fs::remove(path(6));
  ASSERT_EQ(mkfifo(path(6).c_str(), 0600), 0);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    LayerFile(path(6), rules_, 6);
    ADD_FAILURE() << "a FIFO was opened as a layer";
  } catch (const DatabaseError& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Database(dir_.str(), rules_), DatabaseError);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
}

}  // namespace
}  // namespace kalah
