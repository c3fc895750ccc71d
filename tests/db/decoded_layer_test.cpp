// decoded_layer_test.cpp: the decoded copies a resident database of format 1 maps
// (db/decoded_layer.h):
// written once, equal to the layer files, replaced when stale, checked by verify, and never
// needed: a database that cannot write them reads the same values.
#include "db/decoded_layer.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "base/atomic_file.h"
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

// Where a copy of layer s (m = 4) holds its values, and its size.
uint64_t values_at(int s) {
  return DecodedLayer::values_offset(Ranker::binomial(s + 7, 7));
}
uint64_t copy_bytes(int s) {
  return values_at(s) + Ranker::binomial(s + 7, 7);
}

void overwrite(const std::string& path, uint64_t offset, const std::string& bytes) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void write_byte(const std::string& path, uint64_t offset, char byte) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(offset));
  f.put(byte);
}

class DecodedLayerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::build(dir_.str(), kRules, kTop, 0, LayerFormat{1});  // formats 2 and 3 need no copies
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
    EXPECT_EQ(std::filesystem::file_size(copy), copy_bytes(s));
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
  std::filesystem::resize_file(copy_path(dir_, kTop - 1), values_at(kTop - 1) + 10);
  std::filesystem::resize_file(copy_path(dir_, 1), 5);  // not even a header
  EXPECT_EQ(all_values(Database(dir_.str(), kRules, kResident)), expected_);
  EXPECT_EQ(std::filesystem::file_size(copy_path(dir_, 1)), copy_bytes(1));
  EXPECT_TRUE(check_files(dir_.str(), {kRules, {1, 2, 3, 4, 5, 6, 7, 8, 9}}).empty());
}

TEST_F(DecodedLayerTest, VerifyFindsAndRemovesACopyWithWrongValues) {
  { const Database db(dir_.str(), kRules, kResident); }
  const std::string copy = copy_path(dir_, kTop);
  write_byte(copy, values_at(kTop) + 1000, 7);  // header intact, one value wrong
  const std::vector<std::string> problems =
      check_files(dir_.str(), {kRules, {1, 2, 3, 4, 5, 6, 7, 8, 9}});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find(copy + ": differs from"), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find("rank 1000"), std::string::npos) << problems[0];
  EXPECT_FALSE(std::filesystem::exists(copy));
  EXPECT_EQ(all_values(Database(dir_.str(), kRules, kResident)), expected_);  // written again
  EXPECT_TRUE(std::filesystem::exists(copy));
}

// Damage of every kind under an intact header: no value from it is used, the copy is rewritten
// after the answer that found it, and the next database maps the new copy.
TEST_F(DecodedLayerTest, NoValueFromADamagedCopyEver) {
  { const Database db(dir_.str(), kRules, kResident); }
  const std::string copy = copy_path(dir_, kTop), below = copy_path(dir_, kTop - 1);
  const uint64_t n = Ranker::binomial(kTop + 7, 7);
  const std::string pristine = test::read_file(copy);
  const std::string values = pristine.substr(values_at(kTop));
  std::string swapped = values;  // two in-range values exchanged
  for (size_t i = 0; i + 1 < swapped.size(); ++i)
    if (swapped[i] != swapped[i + 1]) {
      std::swap(swapped[i], swapped[i + 1]);
      break;
    }
  const std::string other = test::read_file(below).substr(values_at(kTop - 1));
  const struct {
    const char* what;
    uint64_t at;
    std::string bytes;
  } damage[] = {
      {"zeroed after 4096 values", values_at(kTop) + 4096, std::string(n - 4096, '\0')},
      {"filled with 0xFF", values_at(kTop), std::string(n, '\xFF')},
      {"two values swapped", values_at(kTop), swapped},
      {"another layer's values", values_at(kTop), other},
      {"its checksum table zeroed", DecodedLayer::kTableOffset, std::string(8, '\0')},
  };
  for (const auto& d : damage) {
    overwrite(copy, d.at, d.bytes);
    ASSERT_NE(test::read_file(copy), pristine) << d.what;
    {
      const Database db(dir_.str(), kRules, kResident);
      const uint64_t epoch = db.copy_epoch();
      EXPECT_EQ(all_values(db), expected_) << d.what;
      EXPECT_FALSE(std::filesystem::exists(copy)) << d.what << ": a damaged copy was kept";
      db.check_copies(epoch);  // damage found before use is no reason to withhold an answer
      EXPECT_EQ(test::read_file(copy), pristine) << d.what << ": not rewritten after the answer";
    }
  }
}

// A copy written to or truncated while a database maps it: the answer is withheld (the reads
// past the end of a truncated copy do not end the process), then the layer file serves.
TEST_F(DecodedLayerTest, ACopyChangedUnderAnOpenDatabaseWithholdsTheAnswer) {
  { const Database db(dir_.str(), kRules, kResident); }
  for (const bool truncate : {false, true}) {
    const Database db(dir_.str(), kRules, kResident);
    EXPECT_EQ(all_values(db), expected_);  // every block checked and read from the copies
    const uint64_t epoch = db.copy_epoch();
    const std::string copy = copy_path(dir_, kTop);
    if (truncate)
      std::filesystem::resize_file(copy, values_at(kTop) + 10);
    else
      overwrite(copy, values_at(kTop) + 100, std::string(1000, '\0'));
    all_values(db);  // what an answer in flight reads
    EXPECT_THROW(db.check_copies(epoch), DatabaseError) << (truncate ? "truncated" : "written");
    EXPECT_EQ(all_values(db), expected_);
    db.check_copies(db.copy_epoch());  // the next answer is given
  }
}

// The case that once gave wrong values with exit 0: Kalah(4,3) over a database up to 14 seeds
// whose copy of layer 14 is zeroed past its first 4096 values, or filled with 0xFF. solve and
// query --search give the same answers as over intact copies.
TEST(DecodedCopies, TheCommandLineAnswersRightOverDamagedCopies) {
  const test::TempDir dir;
  const Rules rules{4, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  test::build(dir.str(), rules, 14, 0, LayerFormat{1});
  const auto answers = [&] {
    const test::Ran solve = test::kalah("solve --db " + dir.str() + " --pits 4 --seeds 3");
    const test::Ran query =
        test::kalah("query --search --db " + dir.str() + " 4,3,0,0/0,0,3,4/0,0");
    EXPECT_EQ(solve.status, 0) << solve.out;
    EXPECT_EQ(query.status, 0) << query.out;
    const auto cut = [](const std::string& out) {  // the counts and times left out
      return out.substr(0, std::min(out.find("nodes"), out.find("positions looked up")));
    };
    return cut(solve.out) + cut(query.out);
  };
  const std::string right = answers();  // and the copies are written
  const std::string copy = DecodedLayer::path(dir.str(), rules, 14);
  const uint64_t n = Ranker::binomial(14 + 7, 7), values = DecodedLayer::values_offset(n);
  ASSERT_EQ(std::filesystem::file_size(copy), values + n);
  for (const std::string& damage : {std::string(n - 4096, '\0'), std::string(n, '\xFF')}) {
    overwrite(copy, values + n - damage.size(), damage);
    EXPECT_EQ(answers(), right);
  }
}

// A search killed (SIGKILL) or interrupted (Ctrl-C) at any moment while it writes its first
// copies leaves no file behind but whole copies. On a file system without O_TMPFILE (preloaded
// stand-in) a killed writer leaves its named temporary file, which the next one removes.
TEST(DecodedCopies, AnInterruptedSearchLeavesNothingBehind) {
  const test::TempDir dir;
  const Rules six{6, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  test::build(dir.str(), six, 15, 0, LayerFormat{1});
  const std::string decoded = dir.str("decoded");
  const auto stray = [&] {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(decoded, ec))
      if (e.path().extension() != ".values") out.push_back(e.path().filename().string());
    return out;
  };
  const std::vector<std::string> none;
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string asan_before = asan ? asan : "";
  for (const bool tmpfile : {true, false}) {
    if (!tmpfile) {
      ::setenv("LD_PRELOAD", NO_TMPFILE_LIB, 1);
      // The preload comes before a sanitized kalah's runtime.
      ::setenv("ASAN_OPTIONS", (asan_before + ":verify_asan_link_order=0").c_str(), 1);
    }
    for (int i = 0; i < 10; ++i) {
      std::filesystem::remove_all(decoded);
      test::Process solve(KALAH_EXE,
                          {"solve", "--db", dir.str(), "--seeds", "2", "--threads", "1"});
      const std::string own = ".tmp." + std::to_string(solve.pid());
      std::this_thread::sleep_for(std::chrono::milliseconds(15 * i));
      const bool kill = i % 2 == 0;
      solve.signal(kill ? SIGKILL : SIGINT);
      const int status = solve.wait();
      EXPECT_TRUE(status == 128 + SIGKILL || status == 130 || status == 0) << status;
      const std::string when =
          (tmpfile ? "O_TMPFILE, " : "named, ") + std::to_string(15 * i) + " ms";
      std::vector<std::string> left = stray();
      if (kill && !tmpfile) {
        for (const std::string& name : left)
          EXPECT_TRUE(name.ends_with(own)) << name << ", " << when;
        EXPECT_EQ(remove_stale_temporaries(decoded), static_cast<int>(left.size())) << when;
        left = stray();
      }
      EXPECT_EQ(left, none) << "after " << when;
    }
  }
  ::unsetenv("LD_PRELOAD");
  if (asan_before.empty())
    ::unsetenv("ASAN_OPTIONS");
  else
    ::setenv("ASAN_OPTIONS", asan_before.c_str(), 1);
  // A named temporary file of a process that has ended is removed by the next writer.
  const pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  ::waitpid(gone, nullptr, 0);
  std::filesystem::create_directories(decoded);
  const std::string left =
      decoded + "/kalah-m6-standard-immediate-owner-s15.values.tmp." + std::to_string(gone);
  std::ofstream(left) << "half a copy";
  const test::Ran solved = test::kalah("solve --db " + dir.str() + " --seeds 2");
  EXPECT_EQ(solved.status, 0) << solved.out;
  EXPECT_EQ(stray(), none);
}

// A symlinked decoded/ is not followed: no copy is written outside the database directory.
TEST_F(DecodedLayerTest, ASymlinkedDecodedDirectoryIsNotFollowed) {
  const test::TempDir elsewhere;
  std::filesystem::create_directory_symlink(elsewhere.str(), dir_.str("decoded"));
  EXPECT_EQ(all_values(Database(dir_.str(), kRules, kResident)), expected_);
  EXPECT_TRUE(std::filesystem::is_empty(elsewhere.str()));
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
