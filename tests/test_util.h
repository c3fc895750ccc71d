// test_util.h: what the database tests share: temporary directories, quiet builds, file snapshots.
#pragma once

#include <map>
#include <random>
#include <string>
#include <vector>

#include "db/layer_file.h"
#include "game/rules.h"

namespace kalah::test {

// A fresh directory under the system temp dir, named after the running test, removed at the end.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  // The directory, or a file in it.
  std::string str(const std::string& file = "") const;

 private:
  std::string path_;
};

// Builds layers 1..max_seeds of `rules` into dir with the library, printing nothing.
void build(const std::string& dir, const Rules& rules, int max_seeds, int threads = 0,
           const LayerFormat& format = {});

// A board of m pits a row with s seeds, uniformly among them (by rank).
Board random_board(std::mt19937_64& rng, int m, int s);

std::string read_file(const std::string& path);
// Every layer file (*.kdb) of a directory, by name, with its bytes.
std::map<std::string, std::string> snapshot(const std::string& dir);

}  // namespace kalah::test

namespace kalah::test {

// A child process whose standard output and error come through a pipe, so that a test can wait
// for what it prints (a deterministic point in its work) before signalling it.
class Process {
 public:
  // Runs the program at `path` with `args` (argv[1..]).
  Process(const std::string& path, const std::vector<std::string>& args);
  ~Process();
  // Reads until the output so far contains `text`; false if the process closed its output first.
  bool read_until(const std::string& text);
  void signal(int sig);
  // Reads the rest and waits; the exit status, or 128 + the signal that ended it. The child's
  // peak resident memory in KiB goes to *max_rss_kib if given.
  int wait(long* max_rss_kib = nullptr);
  const std::string& output() const { return output_; }
  int pid() const { return pid_; }

 private:
  int pid_ = -1;
  int fd_ = -1;
  std::string output_;
};

}  // namespace kalah::test

namespace kalah::test {

// What a command run gave: its exit status and output.
struct Ran {
  int status;       // exit status, or 128 + the signal that ended it
  std::string out;  // standard output and error together
};
// Runs a shell command with no standard input unless the command gives one.
Ran shell(const std::string& command);
// Runs the kalah executable with the given arguments (a shell fragment).
Ran kalah(const std::string& args);

}  // namespace kalah::test
