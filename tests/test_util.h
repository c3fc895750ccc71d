// test_util.h: what the database tests share: temporary directories, quiet builds, file snapshots.
#pragma once

#include <map>
#include <string>

#include "solver/rules.h"

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
void build(const std::string& dir, const Rules& rules, int max_seeds, int threads = 0);

std::string read_file(const std::string& path);
// Every file of a directory, by name, with its bytes.
std::map<std::string, std::string> snapshot(const std::string& dir);

}  // namespace kalah::test
