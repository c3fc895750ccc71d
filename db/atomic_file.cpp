// atomic_file.cpp: temporary file, fsync, rename, directory fsync.
#include "db/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "db/layer_file.h"

namespace kalah {
namespace {

[[noreturn]] void fail(const std::string& path, const char* what, int error) {
  throw DatabaseError(path + ": " + what + " failed: " + std::strerror(error));
}

}  // namespace

AtomicFile::AtomicFile(const std::string& dir, const std::string& name)
    : dir_(dir), path_(dir + "/" + name), tmp_(path_ + ".tmp." + std::to_string(::getpid())) {
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0) throw DatabaseError(tmp_ + ": cannot create: " + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (fd_ < 0) return;  // committed
  ::close(fd_);
  ::unlink(tmp_.c_str());
}

void AtomicFile::write(const void* data, size_t size) {
  write_at(data, size, end_);
  end_ += size;
}

void AtomicFile::write_at(const void* data, size_t size, uint64_t offset) const {
  auto p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t w = ::pwrite(fd_, p, size, static_cast<off_t>(offset));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) fail(tmp_, "write", w < 0 ? errno : ENOSPC);
    p += w;
    size -= static_cast<size_t>(w);
    offset += static_cast<uint64_t>(w);
  }
}

void AtomicFile::commit() {
  if (::fsync(fd_) != 0) fail(tmp_, "fsync", errno);
  const int fd = fd_;
  fd_ = -1;  // closed below whatever happens; the destructor must not close it again
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(tmp_.c_str());
    fail(tmp_, "close", error);
  }
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const int error = errno;
    ::unlink(tmp_.c_str());
    fail(path_, "rename", error);
  }
  // The rename is durable once the directory is synced.
  const int dfd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0 || ::fsync(dfd) != 0) {
    const int error = errno;
    if (dfd >= 0) ::close(dfd);
    fail(dir_, "syncing the directory", error);
  }
  ::close(dfd);
}

}  // namespace kalah
