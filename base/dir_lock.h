// dir_lock.h: one writer at a time, of a database directory or of any file kalah appends to.
//
// A writer holds an exclusive flock(2) on a lock file for as long as it runs; the file holds the
// writer's process id, so that a second writer can say who holds it. The kernel drops the lock
// when the process dies, however it dies, so a killed writer never leaves a stale lock. Readers
// take no lock: layer files appear under their final names only once complete.
#pragma once

#include <string>

namespace kalah {

class WriterLock {
 public:
  // Locks `path` (created when missing). Throws FileError "<busy> by process N<advice>" when
  // another process holds it, or when the lock file cannot be created or is not a regular file
  // of its own: a symbolic link is never followed, a hard link never written.
  WriterLock(const std::string& path, const std::string& busy, const std::string& advice);
  ~WriterLock();
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  int fd_ = -1;
};

// DIR/kalah.lock: "database DIR is being built by process N; one build at a time per directory".
class DirectoryLock : public WriterLock {
 public:
  explicit DirectoryLock(const std::string& dir)
      : WriterLock(dir + "/kalah.lock", "database " + dir + " is being built",
                   "; one build at a time per directory") {}
};

}  // namespace kalah
