// file_error.h: the one error of the files kalah keeps (layers, answers, checkpoints, logs,
// certificates, keys): what is wrong and what a writer may do about it.
#pragma once

#include <stdexcept>
#include <string>

namespace kalah {

// A damaged, truncated or mismatched file, or an I/O failure; the message names the file and
// what is wrong. `problem` tells a builder what it may do about the file: only its own damaged
// output (a file of this format whose checksums or size are wrong) is rebuilt over.
struct FileError : std::runtime_error {
  enum class Problem {
    kDamaged,     // this format, bad checksum, size or completeness: the build's own output
    kForeign,     // not provably ours: another format or version, or fields that contradict
    kUnreadable,  // the file or directory cannot be opened or read (permissions, I/O errors)
  };
  explicit FileError(const std::string& what, Problem p = Problem::kForeign)
      : std::runtime_error(what), problem(p) {}
  Problem problem;
};

}  // namespace kalah
