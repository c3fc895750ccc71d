// test_util.cpp: temporary directories, quiet builds, file snapshots.
#include "tests/test_util.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "db/rank.h"
#include "retrograde/builder.h"

namespace kalah::test {

namespace fs = std::filesystem;

// The answer store is off in the whole suite (the kalah processes it starts inherit it), so that
// every search a test asks for is searched; answer_store_test turns it on for itself.
const bool kStoreOff = setenv("KALAH_STORE", "off", 0) == 0;
// The key of records and checkpoints (store/keyed_hash.h) is the build tree's, not the user's.
const bool kTestKey = setenv("KALAH_KEY_FILE", KALAH_TEST_KEY, 0) == 0;

TempDir::TempDir() {
  static int counter = 0;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string test = info ? std::string(info->test_suite_name()) + "-" + info->name() : "";
  path_ = (fs::temp_directory_path() /
           ("kalah-" + test + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
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

void build(const std::string& dir, const Rules& rules, int max_seeds, int threads,
           const LayerFormat& format) {
  BuildOptions o;
  o.dir = dir;
  o.rules = rules;
  o.max_seeds = max_seeds;
  o.threads = threads;
  o.format = format;
  BuildObserver quiet;
  build_database(o, quiet);
}

Board random_board(std::mt19937_64& rng, int m, int s) {
  const Ranker ranker(m, s);
  return ranker.unrank(s,
                       std::uniform_int_distribution<uint64_t>(0, ranker.layer_size(s) - 1)(rng));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".kdb")
      files[e.path().filename().string()] = read_file(e.path().string());
  return files;
}

}  // namespace kalah::test

namespace kalah::test {

Process::Process(const std::string& path, const std::vector<std::string>& args) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execv(path.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  fd_ = fds[0];
}

Process::~Process() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    wait();
  }
}

bool Process::read_until(const std::string& text) {
  char buf[4096];
  while (output_.find(text) == std::string::npos) {
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    output_.append(buf, static_cast<size_t>(n));
  }
  return true;
}

void Process::signal(int sig) {
  ::kill(pid_, sig);
}

int Process::wait(long* max_rss_kib) {
  read_until(std::string(1, '\0'));  // to the end: the output holds no NUL
  ::close(fd_);
  int status = 0;
  struct rusage usage {};
  ::wait4(pid_, &status, 0, &usage);
  if (max_rss_kib) *max_rss_kib = usage.ru_maxrss;
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace kalah::test

namespace kalah::test {

Ran shell(const std::string& command) {
  const std::string cmd = "{ " + command + "; } 2>&1 </dev/null";
  FILE* f = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  const int st = pclose(f);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), out};
}

Ran kalah(const std::string& args) {
  return shell(std::string(KALAH_EXE) + " " + args);
}

}  // namespace kalah::test
