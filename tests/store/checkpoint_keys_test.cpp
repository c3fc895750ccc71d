// checkpoint_keys_test.cpp: what a solve keeps with --checkpoint is never lost to another key,
// an oversized file or a failed save (store/checkpoint.h).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "game/notation.h"
#include "store/checkpoint.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;

SearchState some_state() {
  SearchState s;
  s.nodes = 1000;
  s.moves = {{0, {-4, 2}}};
  return s;
}

TEST(CheckpointKeys, AnotherKeysCheckpointIsNeitherReadNorOverwritten) {
  const test::TempDir dir;
  const Rules r{4};
  const Board b = start_board(4, 3);
  const uint8_t a_bytes[RecordKey::kBytes] = {1}, b_bytes[RecordKey::kBytes] = {2};
  const RecordKey a(a_bytes), other(b_bytes);
  write_checkpoint(dir.str(), r, b, some_state(), a);
  const std::string kept = test::read_file(checkpoint_path(dir.str(), r, b, a));
  std::string problem;
  EXPECT_FALSE(read_checkpoint(dir.str(), r, b, problem, other));  // none of B's: no problem
  EXPECT_TRUE(problem.empty()) << problem;
  SearchState later = some_state();
  later.nodes = 5000;
  write_checkpoint(dir.str(), r, b, later, other);
  EXPECT_EQ(test::read_file(checkpoint_path(dir.str(), r, b, a)), kept);
  ASSERT_TRUE(read_checkpoint(dir.str(), r, b, problem, a));
  EXPECT_EQ(read_checkpoint(dir.str(), r, b, problem, a)->nodes, 1000u);
  EXPECT_EQ(read_checkpoint(dir.str(), r, b, problem, other)->nodes, 5000u);
}

// A 2 GB sparse file, a FIFO: refused at once, without reading them (the process's peak memory
// grows by less than 64 MiB).
TEST(CheckpointKeys, OversizedFilesAndFifosAreRefusedWithoutReading) {
  const test::TempDir dir;
  const Rules r{4};
  const Board b = start_board(4, 3);
  const std::string path = checkpoint_path(dir.str(), r, b);
  fs::create_directories(dir.str());
  ASSERT_EQ(truncate((std::ofstream(path), path).c_str(), off_t{2} << 30), 0);
  const auto peak_mib = [] {
    rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;  // KiB on Linux
  };
  const long before = peak_mib();
  std::string problem;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(read_checkpoint(dir.str(), r, b, problem));
  EXPECT_LT(peak_mib() - before, 64);
  EXPECT_NE(problem.find("bytes, more than"), std::string::npos) << problem;
  fs::remove(path);
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  problem.clear();
  EXPECT_FALSE(read_checkpoint(dir.str(), r, b, problem));
  EXPECT_NE(problem.find("not a regular file"), std::string::npos) << problem;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
}

// A save that fails (its directory gone, a file in its place) is said and the search goes on.
TEST(CheckpointKeys, AFailedSaveIsSaidAndTheSearchGoesOn) {
  const test::TempDir dir;
  const Rules r{4};
  std::vector<std::string> notes;
  const auto c = open_checkpoints(dir.str("ck"), 60, r, start_position(4, 3), false,
                                  [&](const std::string& line) { notes.push_back(line); });
  fs::remove_all(dir.str("ck"));
  std::ofstream(dir.str("ck")) << "not a directory";
  EXPECT_NO_THROW(c->checkpointing.save(some_state()));
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes.back().find("cannot save the checkpoint (the search goes on)"), std::string::npos)
      << notes.back();
}

}  // namespace
}  // namespace kalah
