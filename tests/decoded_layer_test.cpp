// decoded_layer_test.cpp: the decoded copies a resident database maps (db/decoded_layer.h):
// written once, equal to the layer files, replaced when stale, checked by verify, and never
// needed: a database that cannot write them reads the same values.
#include "db/decoded_layer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "db/database.h"
#include "db/verify.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

constexpr size_t kResident = size_t{1} << 40, kEvicting = size_t{1} << 10;
const Rules kRules{4, Capture::kEmpty, End::kImmediate, Remainder::kOwner};
constexpr int kTop = 9;

// Every encoded value of every layer, through `db`.
std::vector<uint8_t> all_values(const Database& db) {
  std::vector<uint8_t> out;
  for (int s = 1; s <= db.max_seeds(); ++s)
    for (uint64_t r = 0; r < db.ranker().layer_size(s); ++r) out.push_back(db.encoded(s, r));
  return out;
}

std::string copy_path(const test::TempDir& dir, int s) {
  return DecodedLayer::path(dir.str(), kRules, s);
}

void write_byte(const std::string& path, uint64_t offset, char byte) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(offset));
  f.put(byte);
}

class DecodedLayerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::build(dir_.str(), kRules, kTop);
    expected_ = all_values(Database(dir_.str(), kRules, kEvicting));  // never writes copies
    ASSERT_FALSE(std::filesystem::exists(dir_.str("decoded")));
  }
  test::TempDir dir_;
  std::vector<uint8_t> expected_;
};

TEST_F(DecodedLayerTest, AResidentDatabaseWritesCopiesOnceAndReadsThem) {
  EXPECT_EQ(all_values(Database(dir_.str(), kRules, kResident)), expected_);
  for (int s = 1; s <= kTop; ++s) {
    const std::string copy = copy_path(dir_, s);
    ASSERT_TRUE(std::filesystem::exists(copy)) << copy;
    EXPECT_EQ(std::filesystem::file_size(copy),
              DecodedLayer::kValuesOffset + Ranker::binomial(s + 7, 7));
  }
  const auto written = std::filesystem::last_write_time(copy_path(dir_, kTop));
  EXPECT_EQ(all_values(Database(dir_.str(), kRules, kResident)), expected_);
  EXPECT_EQ(std::filesystem::last_write_time(copy_path(dir_, kTop)), written) << "rewritten";
  EXPECT_TRUE(check_files(dir_.str(), {kRules, {1, 2, 3, 4, 5, 6, 7, 8, 9}}).empty());
  // Nothing but the copies: no temporary files left.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_.str("decoded")), {}), kTop);
}

TEST_F(DecodedLayerTest, StaleOrTruncatedCopiesAreReplaced) {
  { const Database db(dir_.str(), kRules, kResident); }
  write_byte(copy_path(dir_, kTop), 32, 'x');  // the layer file's checksum: another file's copy
  std::filesystem::resize_file(copy_path(dir_, kTop - 1), DecodedLayer::kValuesOffset + 10);
  std::filesystem::resize_file(copy_path(dir_, 1), 5);  // not even a header
  EXPECT_EQ(all_values(Database(dir_.str(), kRules, kResident)), expected_);
  EXPECT_EQ(std::filesystem::file_size(copy_path(dir_, 1)), DecodedLayer::kValuesOffset + 8);
  EXPECT_TRUE(check_files(dir_.str(), {kRules, {1, 2, 3, 4, 5, 6, 7, 8, 9}}).empty());
}

TEST_F(DecodedLayerTest, VerifyFindsAndRemovesACopyWithWrongValues) {
  { const Database db(dir_.str(), kRules, kResident); }
  const std::string copy = copy_path(dir_, kTop);
  write_byte(copy, DecodedLayer::kValuesOffset + 1000, 7);  // header intact, one value wrong
  const std::vector<std::string> problems =
      check_files(dir_.str(), {kRules, {1, 2, 3, 4, 5, 6, 7, 8, 9}});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find(copy + ": differs from"), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find("rank 1000"), std::string::npos) << problems[0];
  EXPECT_FALSE(std::filesystem::exists(copy));
  EXPECT_EQ(all_values(Database(dir_.str(), kRules, kResident)), expected_);  // written again
  EXPECT_TRUE(std::filesystem::exists(copy));
}

TEST_F(DecodedLayerTest, WithoutRoomForCopiesTheDatabaseDecodesInMemory) {
  std::ofstream(dir_.str("decoded")) << "a file where the directory would go";
  EXPECT_EQ(all_values(Database(dir_.str(), kRules, kResident)), expected_);
  EXPECT_TRUE(std::filesystem::is_regular_file(dir_.str("decoded")));
}

TEST_F(DecodedLayerTest, ADamagedBlockFailsTheOpenAndLeavesNoCopy) {
  const std::string layer = layer_path(dir_.str(), kRules, kTop);
  write_byte(layer, kHeaderSize + 20, 0x55);  // inside the first block's zstd frame
  try {
    const Database db(dir_.str(), kRules, kResident);
    FAIL() << "opened a database with a damaged block";
  } catch (const DatabaseError& e) {
    EXPECT_NE(std::string(e.what()).find(layer), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(copy_path(dir_, kTop)));
  for (const auto& entry : std::filesystem::directory_iterator(dir_.str("decoded")))
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();
}

}  // namespace
}  // namespace kalah
