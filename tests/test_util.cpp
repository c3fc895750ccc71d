// test_util.cpp: temporary directories, quiet builds, file snapshots.
#include "tests/test_util.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "db/builder.h"

namespace kalah::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
  static int counter = 0;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string test = info ? std::string(info->test_suite_name()) + "-" + info->name() : "";
  path_ = (fs::temp_directory_path() / ("kalah-" + test + "-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(counter++)))
              .string();
  fs::remove_all(path_);
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  fs::remove_all(path_);
}

std::string TempDir::str(const std::string& file) const {
  return file.empty() ? path_ : path_ + "/" + file;
}

void build(const std::string& dir, const Rules& rules, int max_seeds, int threads) {
  BuildOptions o;
  o.dir = dir;
  o.rules = rules;
  o.max_seeds = max_seeds;
  o.threads = threads;
  BuildObserver quiet;
  build_database(o, quiet);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    files[e.path().filename().string()] = read_file(e.path().string());
  return files;
}

}  // namespace kalah::test
