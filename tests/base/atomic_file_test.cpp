// atomic_file_test.cpp: base/atomic_file.h writes a file whole under its name, replacing a
// regular file and nothing else: a device, a directory, a FIFO or a symbolic link at the name is
// refused and left as it was, whether it was there at the start or came while the file was
// written.
#include "base/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <functional>

#include "base/file_error.h"
#include "base/regular_file.h"
#include "tests/test_util.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;

void write_whole(const std::string& dir, const std::string& name, const std::string& text) {
  AtomicFile f(dir, name);
  f.write(text.data(), text.size());
  f.commit();
}

TEST(AtomicFile, ReplacesAFileAndNothingElse) {
  test::TempDir dir;
  const std::string d = dir.str();
  write_whole(d, "a", "one");
  write_whole(d, "a", "two");  // a regular file is replaced
  EXPECT_EQ(test::read_file(d + "/a"), "two");
  EXPECT_EQ(not_writable_as_file(d + "/a"), "");
  EXPECT_EQ(not_writable_as_file(d + "/missing"), "");

  const std::function<void(const std::string&)> makers[] = {
      [](const std::string& p) { fs::create_directory(p); },
      [&](const std::string& p) { fs::create_symlink(d + "/a", p); },
      [&](const std::string& p) { fs::create_symlink(d + "/nowhere", p); },
      [](const std::string& p) { ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0); },
  };
  int i = 0;
  for (const auto& make : makers) {
    const std::string name = "x" + std::to_string(i++);
    make(d + "/" + name);
    const auto before = fs::symlink_status(d + "/" + name).type();
    EXPECT_NE(not_writable_as_file(d + "/" + name), "") << name;
    EXPECT_THROW(write_whole(d, name, "three"), FileError) << name;
    EXPECT_EQ(fs::symlink_status(d + "/" + name).type(), before) << name << " was replaced";
    // Put there while the file is written: refused at commit.
    const std::string late = "late" + name;
    AtomicFile f(d, late);
    f.write("four", 4);
    make(d + "/" + late);
    EXPECT_THROW(f.commit(), FileError) << late;
    EXPECT_EQ(fs::symlink_status(d + "/" + late).type(), before) << late << " was replaced";
  }
  EXPECT_EQ(test::read_file(d + "/a"), "two") << "a link's target was written through";
  // No temporary is left behind by the refusals.
  for (const auto& e : fs::directory_iterator(d))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

TEST(AtomicFile, TheRootDirectoryNamesItsFilesWithOneSlash) {
  // Nothing is written: a name under / that is a directory is refused, naming it plainly.
  try {
    AtomicFile f("/", "tmp");
    FAIL() << "/tmp was accepted as a file's name";
  } catch (const FileError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/tmp: a directory", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace kalah
