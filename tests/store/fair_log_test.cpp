// fair_log_test.cpp: `kalah fair --checkpoint`'s log keeps every good line whatever the bad ones
// (a garbage line, a damaged header, CRLF endings), one run writes it at a time, and another
// key's run leaves it alone (store/fair_checkpoint.h).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "base/file_error.h"
#include "store/fair_checkpoint.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

const Rules kRules{3};
const uint8_t kBytes[RecordKey::kBytes] = {4};

// Opens the log of Kalah(3,3), one seed moved, in dir; returns how many candidates it resumed.
size_t resumed(const std::string& dir, const RecordKey& key, size_t* ignored_lines = nullptr) {
  std::vector<FairCandidate> c = fair_candidates(3, 3, 1);
  std::string note;
  const FairCheckpoint log(
      dir, kRules, 3, 1, c, [&](const std::string& s) { note = s; }, key);
  const size_t at = note.find(" line(s) ignored");  // "LOG: N line(s) ignored (...)"
  if (ignored_lines)
    *ignored_lines = at == std::string::npos ? 0 : std::stoul(note.substr(note.rfind(' ', at - 1)));
  return log.resumed();
}

// Every candidate of the log settled (as a proven sign would be: South wins by at least 1).
std::string written_log(const std::string& dir, const RecordKey& key) {
  std::vector<FairCandidate> c = fair_candidates(3, 3, 1);
  FairCheckpoint log(dir, kRules, 3, 1, c, {}, key);
  for (FairCandidate& x : c) {
    x.margin.lower = std::max(x.margin.lower, std::min(1, x.margin.upper));
    log.record(x);
  }
  return log.path();
}

TEST(FairLog, EveryGoodLineIsKeptWhateverTheBadOnes) {
  const test::TempDir dir;
  const RecordKey key(kBytes);
  const std::string path = written_log(dir.str(), key);
  const std::string good = test::read_file(path);
  const size_t all = fair_candidates(3, 3, 1).size();
  ASSERT_EQ(resumed(dir.str(), key), all);

  const size_t middle = good.find('\n', good.size() / 2) + 1;
  std::string crlf;
  for (char ch : good) crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  std::string header = good;
  header[10] ^= 1;  // one damaged byte in the header line
  for (const std::string& damaged :
       {good.substr(0, middle) + "garbage in the middle\n" + good.substr(middle), header, crlf}) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << damaged;
    size_t ignored = 0;
    EXPECT_EQ(resumed(dir.str(), key, &ignored), all) << damaged.substr(0, 80);
    EXPECT_LE(ignored, 1u);
    EXPECT_EQ(resumed(dir.str(), key), all);  // and the log rewritten with them all
  }
}

TEST(FairLog, OneRunWritesALogAtATimeAndAnotherKeysRunLeavesItAlone) {
  const test::TempDir dir;
  const RecordKey key(kBytes);
  const std::string path = written_log(dir.str(), key);
  const std::string good = test::read_file(path);
  std::vector<FairCandidate> c = fair_candidates(3, 3, 1);
  {
    const FairCheckpoint first(dir.str(), kRules, 3, 1, c, {}, key);
    std::vector<FairCandidate> d = fair_candidates(3, 3, 1);
    try {
      const FairCheckpoint second(dir.str(), kRules, 3, 1, d, {}, key);
      ADD_FAILURE() << "a second run opened the log the first is writing";
    } catch (const FileError& e) {
      EXPECT_NE(std::string(e.what()).find("one run a log"), std::string::npos) << e.what();
    }
  }
  const uint8_t other_bytes[RecordKey::kBytes] = {5};
  EXPECT_EQ(resumed(dir.str(), RecordKey(other_bytes)), 0u);
  EXPECT_EQ(test::read_file(path), good);  // the other key's run has a log of its own
  EXPECT_EQ(resumed(dir.str(), key), c.size());
}

TEST(FairLog, AFifoAtItsNameIsRefusedAtOnce) {
  const test::TempDir dir;
  const RecordKey key(kBytes);
  const std::string path = written_log(dir.str(), key);
  std::filesystem::remove(path);
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    resumed(dir.str(), key);
    ADD_FAILURE() << "a FIFO was read as the log";
  } catch (const FileError& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
}

// A link put at the log's lock or at the log itself is never followed: the file it points at is
// left as it was (issue: anyone who could write in a shared directory could overwrite another
// user's file with a process id).
TEST(FairLog, ALinkAtItsLockOrItsNameIsNeverFollowed) {
  const test::TempDir dir, elsewhere;
  const RecordKey key(kBytes);
  const std::string path = written_log(dir.str(), key);
  const std::string precious = elsewhere.str("precious");
  std::ofstream(precious) << "precious\n";
  std::filesystem::remove(path + ".lock");  // the first run's, released
  std::filesystem::create_symlink(precious, path + ".lock");
  EXPECT_THROW(resumed(dir.str(), key), FileError);
  EXPECT_EQ(test::read_file(precious), "precious\n");
  std::filesystem::remove(path + ".lock");
  std::filesystem::create_symlink(elsewhere.str("missing"), path + ".lock");
  EXPECT_THROW(resumed(dir.str(), key), FileError);
  EXPECT_FALSE(std::filesystem::exists(elsewhere.str("missing"))) << "a dangling link was created";
  std::filesystem::remove(path + ".lock");
  EXPECT_EQ(resumed(dir.str(), key), fair_candidates(3, 3, 1).size());
}

}  // namespace
}  // namespace kalah
