// reliability_test.cpp: no crash and no wrong value from any file, one writer per directory,
// resumption that never overwrites what it cannot prove is its own, bad options and input.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "base/checksum.h"
#include "base/dir_lock.h"
#include "db/file_names.h"
#include "db/layer_file.h"
#include "retrograde/builder.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;
using test::kalah;
using test::Ran;

constexpr Rules kRules{4, Capture::kStandard, End::kImmediate, Remainder::kOwner};
constexpr int kTop = 9;

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Sets a little-endian header field of a layer file's bytes and recomputes the header checksum
// (offset 80 in the layout of db/layer_file.h), as a forger would.
std::string forge(std::string bytes, size_t offset, int size, uint64_t value) {
  for (int i = 0; i < size; ++i) bytes[offset + i] = static_cast<char>(value >> (8 * i));
  for (int i = 0; i < 8; ++i) bytes[80 + i] = 0;
  const uint64_t sum = Checksum::of(bytes.data(), kHeaderSize);
  for (int i = 0; i < 8; ++i) bytes[80 + i] = static_cast<char>(sum >> (8 * i));
  return bytes;
}

class Reliability : public ::testing::Test {
 protected:
  void SetUp() override { test::build(dir_.str(), kRules, kTop); }
  std::string path(int s) const { return layer_path(dir_.str(), kRules, s); }
  std::string db() const { return "--db " + dir_.str(); }
  test::TempDir dir_;
};

TEST_F(Reliability, ForgedHeaderFieldsAreRefusedByEveryCommandAndLeftAlone) {
  const std::string original = test::read_file(path(7));
  struct Forgery {
    size_t offset;
    int size;
    uint64_t value;
    const char* field;  // in the message
  };
  const Forgery forgeries[] = {
      {24, 8, 65536, "boards"},
      {32, 8, (uint64_t{1} << 61) - 1, "block count"},
      {20, 4, 4096, "boards per block"},
      {40, 8, kHeaderSize + 8, "index offset"},
      {40, 8, ~uint64_t{0} - 3, "index offset"},
      {16, 2, 8, "layer"},
      {18, 1, 2, "value encoding"},
      {56, 4, 3, "flags"},
      {12, 1, 5, "rules"},
  };
  for (const Forgery& f : forgeries) {
    const std::string forged = forge(original, f.offset, f.size, f.value);
    write_file(path(7), forged);
    const auto before = test::snapshot(dir_.str());
    try {
      LayerFile(path(7), kRules, 7);
      ADD_FAILURE() << f.field << ": forged header accepted";
    } catch (const DatabaseError& e) {
      EXPECT_NE(std::string(e.what()).find(f.field), std::string::npos) << e.what();
      EXPECT_EQ(e.problem, DatabaseError::Problem::kForeign) << e.what();
    }
    for (const std::string& command :
         {"query " + db() + " 1,1,1,1/1,1,1,1", "solve --pits 4 --seeds 2 " + db(), "info " + db(),
          "verify " + db(), "build --pits 4 " + db() + " --max-seeds 10"}) {
      const Ran r = kalah(command);
      EXPECT_EQ(r.status, 1) << f.field << ": " << command << "\n" << r.out;
      EXPECT_NE(r.out.find("s7.kdb"), std::string::npos) << command << "\n" << r.out;
    }
    EXPECT_TRUE(test::snapshot(dir_.str()) == before) << f.field << ": files were changed";
  }
  write_file(path(7), original);
}

TEST_F(Reliability, ImpossibleValuesAreNeverServed) {
  // A layer file written by the library itself, checksums and header valid, one code of 200.
  std::vector<uint8_t> values(LayerFile(path(7), kRules, 7).header().boards, 0);
  LayerFile(path(7), kRules, 7).read_all(values.data());
  values[values.size() / 2] = 200;
  // Format 1: format 2 cannot even code it (ValueBlocks.AForgedCodeIsRefused).
  write_layer_file(dir_.str(), kRules, 7, values.data(), values.size(), LayerFormat{1});
  const auto before = test::snapshot(dir_.str());
  for (const std::string& command :
       {"solve --pits 4 --seeds 2 " + db(), "verify " + db(), "info " + db(),
        "build --pits 4 " + db() + " --max-seeds 10"}) {
    const Ran r = kalah(command);
    EXPECT_EQ(r.status, 1) << command << "\n" << r.out;
    EXPECT_NE(r.out.find("code 200"), std::string::npos) << command << "\n" << r.out;
  }
  EXPECT_TRUE(test::snapshot(dir_.str()) == before) << "files were changed";
}

// kalah.lock is never followed through a link nor written through a hard link: a build refuses
// it and the file it points at is left as it was.
TEST_F(Reliability, ALinkAtTheLockIsNeverFollowed) {
  const test::TempDir elsewhere;
  const std::string precious = elsewhere.str("precious"), lock = dir_.str("kalah.lock");
  std::ofstream(precious) << "precious\n";
  const auto refused = [&](const std::string& why) {
    const Ran r = kalah("build --pits 4 " + db() + " --max-seeds 6");
    EXPECT_NE(r.status, 0) << r.out;
    EXPECT_NE(r.out.find(why), std::string::npos) << r.out;
    EXPECT_EQ(test::read_file(precious), "precious\n");
    fs::remove(lock);
  };
  fs::remove(lock);  // an earlier build's, released
  fs::create_symlink(precious, lock);
  refused("is a symbolic link");
  fs::create_symlink(elsewhere.str("missing"), lock);
  refused("is a symbolic link");
  EXPECT_FALSE(fs::exists(elsewhere.str("missing"))) << "a dangling link was created";
  fs::create_hard_link(precious, lock);
  refused("a hard link");
  EXPECT_EQ(kalah("build --pits 4 " + db() + " --max-seeds 6").status, 0);
}

TEST_F(Reliability, OneWriterPerDirectory) {
  const auto before = test::snapshot(dir_.str());
  {
    const DirectoryLock held(dir_.str());
    const Ran r = kalah("build --pits 4 " + db() + " --max-seeds 10");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("is being built by process " + std::to_string(::getpid())),
              std::string::npos)
        << r.out;
    EXPECT_EQ(kalah("query " + db() + " 1,1,1,1/1,1,1,1").status, 0) << "readers take no lock";
    EXPECT_THROW(DirectoryLock again(dir_.str()), FileError);
  }
  EXPECT_TRUE(test::snapshot(dir_.str()) == before);
  EXPECT_EQ(kalah("build --pits 4 " + db() + " --max-seeds 10").status, 0)
      << "the lock was released";
}

TEST_F(Reliability, ResumeStopsAtFilesItCannotProveAreItsOwn) {
  const std::string original = test::read_file(path(5));
  // A newer format version (with a valid header checksum), and a directory in a file's place.
  write_file(path(5), forge(original, 8, 4, kNewestFormat + 1));
  Ran r = kalah("build --pits 4 " + db() + " --max-seeds 10");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("format version " + std::to_string(kNewestFormat + 1)), std::string::npos)
      << r.out;
  EXPECT_EQ(test::read_file(path(5)), forge(original, 8, 4, kNewestFormat + 1))
      << "the newer file was touched";
  fs::remove(path(5));
  fs::create_directory(path(5));
  r = kalah("build --pits 4 " + db() + " --max-seeds 10");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(fs::is_directory(path(5)));
  fs::remove(path(5));
  // Its own damaged output (a flipped byte in a block) is rebuilt to the same bytes.
  std::string damaged = original;
  damaged[kHeaderSize + 3] ^= 0x40;
  write_file(path(5), damaged);
  r = kalah("build --pits 4 " + db() + " --max-seeds 9");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("rebuilding it"), std::string::npos) << r.out;
  EXPECT_EQ(test::read_file(path(5)), original);
}

TEST_F(Reliability, StrayLayerNamesAreReportedAndNeverRead) {
  fs::copy_file(path(5), dir_.str("kalah-m4-standard-immediate-owner-s05.kdb"));
  const Ran info = kalah("info " + db());
  EXPECT_EQ(info.status, 0) << info.out;
  EXPECT_NE(info.out.find("ignoring"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("layers 1..9 (9 files)"), std::string::npos) << info.out;
  EXPECT_EQ(kalah("query " + db() + " 1,1,1,1/1,1,1,1").status, 0);
  fs::remove(path(5));
  const Ran gap = kalah("info " + db());
  EXPECT_EQ(gap.status, 1) << gap.out;
  EXPECT_NE(gap.out.find("layers 5..5 missing"), std::string::npos) << gap.out;
}

TEST_F(Reliability, BadNumericOptionsExitTwoOnEveryCommand) {
  const std::string d = db() + " --pits 4";
  for (const std::string& args :
       std::vector<std::string>{"build " + d + " --max-seeds 3 --memory nan",
                                "build " + d + " --max-seeds 3 --memory inf",
                                "build " + d + " --max-seeds 3 --memory 1e30",
                                "build " + d + " --max-seeds 3 --memory -1",
                                "build " + d + " --max-seeds 3 --threads -5",
                                "build " + d + " --max-seeds 3 --threads 1e9",
                                "build " + d + " --max-seeds 3 --zstd-level 0",
                                "build " + d + " --max-seeds -3",
                                "bench --probes -1",
                                "bench --probes nan",
                                "bench --threads -5",
                                "bench --max-seeds 0",
                                "query " + db() + " --cache-mb -1 1,1,1,1/1,1,1,1",
                                "query " + db() + " --pits -4 1,1/1,1",
                                "solve --seeds 2 --tt-mb -1",
                                "solve --seeds nan",
                                "solve --pits -3 --seeds 1",
                                "verify " + db() + " --sample -1",
                                "verify " + db() + " --solver-sample -2",
                                "verify " + db() + " --solver-max-seeds 999",
                                "info " + db() + " --pits x",
                                "play --pits 4 --seeds 3 --time -1",
                                "play --pits 4 --seeds 3 --time nan",
                                "play --pits 0 --seeds 3",
                                "play --side X",
                                "play --pits 4 --seeds 3 --moves S:9",
                                "kgp --port 70000",
                                "kgp --port -1",
                                "kgp --time inf"}) {
    const Ran r = kalah(args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.out;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << args << ": not one line: " << r.out;
  }
}

TEST_F(Reliability, HugeOrOddInputIsEchoedShortOnOneLine) {
  const Ran huge = test::shell("head -c 20000000 /dev/zero | tr '\\0' 1 | " +
                               std::string(KALAH_EXE) + " query " + db());
  EXPECT_EQ(huge.status, 2);
  EXPECT_LT(huge.out.size(), 500u) << huge.out.substr(0, 500);
  EXPECT_EQ(huge.out.find('\n'), huge.out.size() - 1);
  const Ran commas = test::shell("head -c 4000000 /dev/zero | tr '\\0' , | " +
                                 std::string(KALAH_EXE) + " query " + db());
  EXPECT_EQ(commas.status, 2);
  EXPECT_LT(commas.out.size(), 500u);
  const Ran odd = kalah("solve \"$(printf '1,2\\n3/4,\\001')\"");
  EXPECT_EQ(odd.status, 2) << odd.out;
  EXPECT_EQ(odd.out.find('\n'), odd.out.size() - 1) << odd.out;
  EXPECT_NE(odd.out.find("\\n"), std::string::npos) << odd.out;
}

}  // namespace
}  // namespace kalah

namespace kalah {
namespace {

TEST(Durability, AFailedRenameLeavesNoTemporaryFile) {
  test::TempDir dir;
  const Rules rules{2, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  // A non-empty directory under the layer's final name: rename(2) onto it fails.
  fs::create_directories(dir.str(layer_file_name(rules, 1) + "/inside"));
  const std::vector<uint8_t> values(4, 1);
  EXPECT_THROW(write_layer_file(dir.str(), rules, 1, values.data(), values.size()), FileError);
  for (const auto& e : fs::directory_iterator(dir.str()))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
}

// The prefix of a command run as the user nobody, or empty where that cannot be done (not root,
// no setpriv, or the executable out of nobody's reach).
std::string nobody() {
  if (::geteuid() != 0) return "";
  const std::string prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
  return test::shell(prefix + KALAH_EXE + " --version").status == 0 ? prefix : "";
}

// The default directory is only a hint to solve: one it cannot read (another user's) is a note,
// and the search goes on without it; an explicit --db that cannot be read stays an error.
TEST(Durability, AnUnreadableDefaultDirectoryIsANoteForSolve) {
  const std::string as_nobody = nobody();
  if (as_nobody.empty()) GTEST_SKIP() << "needs root, setpriv and an executable nobody can run";
  const test::TempDir dir;
  ::chmod(dir.str().c_str(), 0700);  // root's alone
  const Ran solved = test::shell(as_nobody + "env KALAH_DB=" + dir.str() + " " + KALAH_EXE +
                                 " solve --pits 3 --seeds 2");
  EXPECT_EQ(solved.status, 0) << solved.out;
  EXPECT_NE(solved.out.find("note: not using the default database: " + dir.str()),
            std::string::npos)
      << solved.out;
  EXPECT_NE(solved.out.find("value: +4"), std::string::npos) << solved.out;
  const Ran given =
      test::shell(as_nobody + KALAH_EXE + " solve --pits 3 --seeds 2 --db " + dir.str());
  EXPECT_EQ(given.status, 1) << given.out;
}

// A complete database in a directory the builder cannot write (another user's, as here, or a
// read-only mount): a build of it says there is nothing to build; one that needs a layer says why
// it cannot.
TEST(Durability, ACompleteDatabaseNeedsNoWriteAccess) {
  const std::string as_nobody = nobody();
  if (as_nobody.empty()) GTEST_SKIP() << "needs root, setpriv and an executable nobody can run";
  const test::TempDir dir;
  ASSERT_EQ(kalah("build --pits 4 --max-seeds 6 --db " + dir.str()).status, 0);
  ::chmod(dir.str().c_str(), 0755);
  const Ran complete =
      test::shell(as_nobody + KALAH_EXE + " build --pits 4 --max-seeds 6 --db " + dir.str());
  EXPECT_EQ(complete.status, 0) << complete.out;
  EXPECT_NE(complete.out.find("nothing to build"), std::string::npos) << complete.out;
  const Ran more =
      test::shell(as_nobody + KALAH_EXE + " build --pits 4 --max-seeds 7 --db " + dir.str());
  EXPECT_EQ(more.status, 1) << more.out;
  EXPECT_NE(more.out.find("cannot write there"), std::string::npos) << more.out;
  ::chmod(dir.str().c_str(), 0700);  // not even readable: one line naming the file
  const Ran unreadable =
      test::shell(as_nobody + KALAH_EXE + " build --pits 4 --max-seeds 6 --db " + dir.str());
  EXPECT_EQ(unreadable.status, 1) << unreadable.out;
  EXPECT_NE(unreadable.out.find("s1.kdb: cannot read: Permission denied"), std::string::npos)
      << unreadable.out;
}

}  // namespace
}  // namespace kalah
