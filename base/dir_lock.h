// dir_lock.h: one writer per database directory.
//
// A build holds an exclusive flock(2) on DIR/kalah.lock for as long as it runs; the file holds
// the builder's process id, so that a second writer can say who holds it. The kernel drops the
// lock when the process dies, however it dies, so a killed build never leaves a stale lock.
// Readers take no lock: layer files appear under their final names only once complete.
#pragma once

#include <string>

namespace kalah {

class DirectoryLock {
 public:
  // Throws DatabaseError "database DIR is being built by process N" when another process holds
  // it, or when the lock file cannot be created.
  explicit DirectoryLock(const std::string& dir);
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace kalah
