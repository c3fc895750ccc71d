// dir_lock.cpp: flock on DIR/kalah.lock.
#include "base/dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/file_error.h"

namespace kalah {

WriterLock::WriterLock(const std::string& path, const std::string& busy,
                       const std::string& advice) {
  // Never through a link: whoever can write in the directory could otherwise point the lock at
  // another user's file, which the process id below would overwrite.
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0644);
  if (fd_ < 0 && errno == ELOOP)
    throw FileError(path +
                        ": the lock file is a symbolic link, which kalah never follows: "
                        "remove it",
                    FileError::Problem::kUnreadable);
  if (fd_ < 0)
    throw FileError(path + ": cannot create the lock file: " + std::strerror(errno),
                    FileError::Problem::kUnreadable);
  struct stat st;
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
    ::close(fd_);
    fd_ = -1;
    throw FileError(path + ": the lock file is not a file of its own (a hard link, or not a " +
                        "regular file), which kalah never writes: remove it",
                    FileError::Problem::kUnreadable);
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    char pid[32] = {};
    const ssize_t n = ::pread(fd_, pid, sizeof pid - 1, 0);
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK)
      throw FileError(busy + " by " +
                      (n > 0 ? "process " + std::string(pid, static_cast<size_t>(n))
                             : std::string("another process")) +
                      advice);
    throw FileError(path + ": cannot lock: " + std::strerror(error),
                    FileError::Problem::kUnreadable);
  }
  const std::string me = std::to_string(::getpid());
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, me.data(), me.size(), 0) < 0) {
    // The pid is only for the message of a second writer; the lock itself holds.
  }
}

WriterLock::~WriterLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

}  // namespace kalah
