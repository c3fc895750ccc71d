// hot_blocks_test.cpp: the blocks of layers searched where they lie, decoded into memory once a
// search probes them often (db/block_cache.h): the same values as format 1, probed and
// prefetched; decoded after kHotAfter probes and not before; within the cache's limit; a layer
// written under the process refused, hot blocks included, also with its time put back (a chmod
// is not refused); a damaged block never served.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "db/block_cache.h"
#include "db/database.h"
#include "db/file_names.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

constexpr size_t kBlockBytes = kBoardsPerBlock;  // a decoded block: a byte a board

// Every value of layers 1..top through `db`'s probe path (prefetch, its stages, value_at).
std::vector<int> every_value(const Database& db) {
  std::vector<int> values;
  for (int s = 1; s <= db.max_seeds(); ++s)
    for (uint64_t r = 0; r < db.ranker().layer_size(s); ++r) {
      const Board b = db.ranker().unrank(s, r);
      if (is_terminal(db.rules(), b)) continue;
      const uint64_t at = db.prefetch(b);
      for (int stage = 1; stage <= db.prefetch_stages(); ++stage) db.prefetch_again(s, at, stage);
      values.push_back(db.value_at(b, at));
    }
  return values;
}

uint64_t blocks_of(const Database& db) {
  uint64_t blocks = 0;
  for (int s = 1; s <= db.max_seeds(); ++s) blocks += db.layer(s).header().blocks;
  return blocks;
}

// m = 5 up to 12 seeds: layers of up to 5 blocks, the last of each partial.
class HotBlocks : public ::testing::Test {
 protected:
  static constexpr int kTop = 12;
  const Rules rules_{5, Capture::kEmpty, End::kImmediate, Remainder::kOwner};
  void SetUp() override {
    test::build(dir_.str(), rules_, kTop);
    test::build(old_.str(), rules_, kTop, 0, LayerFormat{1});
    expected_ = every_value(Database(old_.str(), rules_, size_t{1} << 30));
  }
  test::TempDir dir_, old_;
  std::vector<int> expected_;
};

TEST_F(HotBlocks, EveryBoardEqualsFormatOneDecodedOrWhereItLies) {
  const Database db(dir_.str(), rules_, size_t{1} << 30);
  ASSERT_TRUE(db.layer(kTop).in_place());
  EXPECT_EQ(every_value(db), expected_) << "where it lies";
  db.decode_in_memory();
  EXPECT_EQ(db.decoded_in_memory(), blocks_of(db) * kBlockBytes);
  EXPECT_EQ(every_value(db), expected_) << "decoded in memory";
}

// A block turns hot at the probe after its kHotAfter-th where it lies, not before; the others
// stay where they lie.
TEST_F(HotBlocks, ABlockIsDecodedAfterItsProbes) {
  const Database db(dir_.str(), rules_, size_t{1} << 30);
  const uint8_t first = db.encoded(kTop, 0);
  for (uint32_t i = 2; i < BlockCache::kHotAfter; ++i) db.encoded(kTop, i % 100);
  EXPECT_EQ(db.decoded_in_memory(), 0u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(db.encoded(kTop, 0), first);  // kHotAfter, then decoded
  EXPECT_EQ(db.decoded_in_memory(), kBlockBytes);
  EXPECT_EQ(every_value(db), expected_);
}

// A limit of two blocks: two decoded, every other block answered where it lies.
TEST_F(HotBlocks, TheCacheLimitBoundsTheBlocksDecoded) {
  const Database db(dir_.str(), rules_, 2 * kBlockBytes + 100);
  db.decode_in_memory();
  EXPECT_EQ(db.decoded_in_memory(), 2 * kBlockBytes);
  EXPECT_EQ(every_value(db), expected_);
}

// A layer written to in place after its blocks were decoded: the answer is withheld, and from
// then on the layer is refused, its decoded blocks too (they may hold the changed bytes).
TEST_F(HotBlocks, ALayerWrittenUnderTheProcessIsRefusedDecodedOrNot) {
  const Database db(dir_.str(), rules_, size_t{1} << 30);
  db.decode_in_memory();
  const uint64_t epoch = db.copy_epoch();
  const std::string path = dir_.str(layer_file_name(rules_, kTop));
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(kHeaderSize + 20);
    f.put('\x5a');
  }
  // Its time moved on for sure: a write within the clock's tick of the build may keep it.
  std::filesystem::last_write_time(
      path, std::filesystem::last_write_time(path) + std::chrono::seconds(1));
  EXPECT_THROW(db.check_copies(epoch), DatabaseError);
  EXPECT_THROW(db.encoded(kTop, 0), DatabaseError);
  EXPECT_EQ(db.encoded(kTop - 1, 0), Database(old_.str(), rules_).encoded(kTop - 1, 0));
}

// The same write with the modification time put back (as `rsync --inplace --times` does): only
// the change time says so, and the bytes, read again, decide. A chmod moves the change time too
// and leaves the bytes as they were: the layer goes on serving.
TEST_F(HotBlocks, AWriteWithItsTimePutBackIsRefusedAChmodIsNot) {
  const Database db(dir_.str(), rules_, size_t{1} << 30);
  db.decode_in_memory();
  const std::string path = dir_.str(layer_file_name(rules_, kTop));
  const std::string below = dir_.str(layer_file_name(rules_, kTop - 1));
  namespace fs = std::filesystem;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the open's change time
  fs::permissions(below, fs::perms::owner_read, fs::perm_options::remove);
  fs::permissions(below, fs::perms::owner_read, fs::perm_options::add);
  uint64_t epoch = db.copy_epoch();
  EXPECT_NO_THROW(db.check_copies(epoch)) << "a chmod refused a layer";
  EXPECT_NO_THROW(db.check_copies(epoch)) << "the bytes were compared, then the chmod forgotten";
  const auto written = fs::last_write_time(path);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(kHeaderSize + 20);
    f.put('\x5a');
  }
  fs::last_write_time(path, written);
  epoch = db.copy_epoch();
  EXPECT_THROW(db.check_copies(epoch), DatabaseError);
  EXPECT_THROW(db.encoded(kTop, 0), DatabaseError);
  EXPECT_EQ(db.encoded(kTop - 1, 0), Database(old_.str(), rules_).encoded(kTop - 1, 0));
}

// A damaged block is refused when it would be decoded into memory, as where it lies.
TEST_F(HotBlocks, ADamagedBlockIsNeverDecodedIntoMemory) {
  const std::string path = dir_.str(layer_file_name(rules_, kTop));
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(kHeaderSize + 100);
    f.put('\x5a');
  }
  const Database db(dir_.str(), rules_, size_t{1} << 30);
  EXPECT_THROW(db.decode_in_memory(), DatabaseError);
  EXPECT_THROW(db.encoded(kTop, 0), DatabaseError);
  for (uint32_t i = 0; i < 2 * BlockCache::kHotAfter; ++i)
    ASSERT_THROW(db.encoded(kTop, 1), DatabaseError);
  EXPECT_EQ(db.encoded(kTop, kBoardsPerBlock),
            Database(old_.str(), rules_).encoded(kTop, kBoardsPerBlock));
}

}  // namespace
}  // namespace kalah
