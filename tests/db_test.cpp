// db_test.cpp: databases against the exact solver, determinism, resumption and damage detection.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "db/builder.h"
#include "db/database.h"
#include "db/layer_file.h"
#include "solver/parallel_search.h"
#include "solver/notation.h"
#include "solver/solver.h"
#include "tests/oracle.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;

// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() /
            ("kalah-" + std::string(info->test_suite_name()) + "-" + info->name() + "-" +
             std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string str(const std::string& sub = "") const { return (path_ / sub).string(); }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

struct Quiet : BuildObserver {};

void build(const std::string& dir, const Rules& rules, int max_seeds, int threads = 0) {
  BuildOptions o;
  o.dir = dir;
  o.rules = rules;
  o.max_seeds = max_seeds;
  o.threads = threads;
  Quiet quiet;
  build_database(o, quiet);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every file of a directory, by name, with its bytes.
std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    files[e.path().filename().string()] = read_file(e.path().string());
  return files;
}

TEST(Database, EveryBoardOfSmallDatabasesEqualsTheSolver) {
  for (auto [m, max_seeds] : {std::pair{3, 12}, std::pair{4, 10}}) {
    for (const Rules& rules : test::all_variants(m)) {
      TempDir dir;
      build(dir.str(), rules, max_seeds);
      const Database db(dir.str(), rules);
      ASSERT_EQ(db.max_seeds(), max_seeds);
      Solver solver(rules, 8 << 20);
      for (int s = 1; s <= max_seeds; ++s) {
        Board b = db.ranker().first(s);
        do {
          ASSERT_EQ(db.probe(b), solver.value(b))
              << describe(rules) << " board " << format_relative(Position{b}, m);
        } while (db.ranker().next(b));
      }
      Board above = start_board(m, 0);
      above.pits[0] = static_cast<uint8_t>(max_seeds);
      above.pits[m] = 1;
      EXPECT_FALSE(db.probe(above).has_value()) << "a board above the top layer has no value";
    }
  }
}

TEST(Database, OneAndTwoThreadsWriteIdenticalFiles) {
  const Rules rules{5, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  TempDir one, two;
  build(one.str(), rules, 12, 1);
  build(two.str(), rules, 12, 2);
  const auto a = snapshot(one.str()), b = snapshot(two.str());
  EXPECT_EQ(a.size(), 12u);
  EXPECT_TRUE(a == b) << "builds with 1 and 2 threads differ";
}

TEST(Database, KilledBuildResumesToIdenticalFiles) {
  const Rules rules{6, Capture::kEmpty, End::kImmediate, Remainder::kOwner};
  const int top = 14;
  TempDir reference, killed;
  build(reference.str(), rules, top);

  // Start the real executable and SIGKILL it while a middle layer is being computed.
  const std::string watch = killed.str(layer_file_name(rules, top - 2));
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    dup2(null, 1);
    execl(KALAH_EXE, "kalah", "build", "--db", killed.str().c_str(), "--max-seeds",
          std::to_string(top).c_str(), "--capture", "empty", static_cast<char*>(nullptr));
    _exit(127);
  }
  while (!fs::exists(watch)) {
    int status;
    ASSERT_EQ(waitpid(pid, &status, WNOHANG), 0) << "the build ended before it could be killed";
    usleep(2000);
  }
  usleep(20000);  // into layer top-1
  kill(pid, SIGKILL);
  int status;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  EXPECT_FALSE(fs::exists(killed.str(layer_file_name(rules, top)))) << "killed too late to test";

  build(killed.str(), rules, top);
  EXPECT_TRUE(snapshot(reference.str()) == snapshot(killed.str()));
}

class Damage : public ::testing::Test {
 protected:
  void SetUp() override { build(dir_.str(), rules_, 9); }
  std::string path(int s) const { return dir_.str(layer_file_name(rules_, s)); }

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

  TempDir dir_;
  const Rules rules_{4, Capture::kStandard, End::kImmediate, Remainder::kOwner};
};

TEST_F(Damage, FlippedBytesAnywhereAreRefused) {
  const int s = 9;
  const std::string original = read_file(path(s));
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
  const std::string original = read_file(path(7));
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
  EXPECT_THROW(Database(dir_.str(), empty), DatabaseError);  // no files of that variant
}

}  // namespace
}  // namespace kalah

namespace kalah {
namespace {

TEST(DatabaseSearch, SearchWithLeavesEqualsSearchWithoutAndTheDatabase) {
  std::mt19937_64 rng(4242);
  for (int m : {3, 4}) {
    const int top = m == 3 ? 10 : 8;
    for (const Rules& rules : test::all_variants(m)) {
      TempDir dir;
      build(dir.str(), rules, top);
      const Database db(dir.str(), rules);
      Solver plain(rules, 4 << 20), leaves(rules, 4 << 20, &db), tiny(rules, 256, &db);
      const Ranker ranker(m, 2 * top);
      for (int i = 0; i < 30; ++i) {
        const int s = 1 + static_cast<int>(rng() % (2 * top));  // half in the database, half above
        const Board b = ranker.unrank(
            s, std::uniform_int_distribution<uint64_t>(0, ranker.layer_size(s) - 1)(rng));
        const int expected = plain.value(b);
        const std::string where = describe(rules) + " board " + format_relative(Position{b}, m);
        ASSERT_EQ(leaves.value(b), expected) << where;
        ASSERT_EQ(tiny.value(b), expected) << where << " (tiny table)";
        const LeafValues* const sources[] = {&db, nullptr};
        for (const LeafValues* leaf_values : sources) {
          const ParallelValue pv = value_parallel(rules, Position{b}, leaf_values, 1 << 20);
          ASSERT_EQ(pv.lower, expected) << where << " (value_parallel)";
          ASSERT_EQ(pv.upper, expected) << where << " (value_parallel)";
        }
        if (s <= top) {
          ASSERT_EQ(db.probe(b), expected) << where;
        }
      }
      EXPECT_GT(leaves.probes(), 0u);
    }
  }
}

}  // namespace
}  // namespace kalah

namespace kalah {
namespace {

TEST(DatabaseSearch, ConcurrentProbesAgreeWithOneThread) {
  // Threads probing the same fresh blocks at once, in both cache modes, against one thread.
  const Rules rules{5, Capture::kEmpty, End::kImmediate, Remainder::kOwner};
  TempDir dir;
  build(dir.str(), rules, 12);
  const Database reference(dir.str(), rules);
  std::mt19937_64 rng(7);
  std::vector<Board> boards(100000);
  for (auto& b : boards) {
    const int s = 1 + static_cast<int>(rng() % 12);
    b = reference.ranker().unrank(
        s, std::uniform_int_distribution<uint64_t>(0, reference.ranker().layer_size(s) - 1)(rng));
  }
  std::vector<int> expected;
  for (const auto& b : boards) expected.push_back(*reference.probe(b));
  for (size_t cache : {size_t{1} << 40, size_t{1} << 20}) {  // resident, and evicting
    for (int round = 0; round < 3; ++round) {
      const Database db(dir.str(), rules, cache);
      std::atomic<int> wrong{0};
      tbb::parallel_for(size_t{0}, boards.size(), [&](size_t i) {
        if (*db.probe(boards[i]) != expected[i]) ++wrong;
      });
      EXPECT_EQ(wrong.load(), 0) << "cache " << cache;
    }
  }
}

}  // namespace
}  // namespace kalah
