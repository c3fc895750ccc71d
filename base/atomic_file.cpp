// atomic_file.cpp: temporary file, fsync, rename, directory fsync.
#include "base/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "base/file_error.h"
#include "base/regular_file.h"

namespace kalah {
namespace {

[[noreturn]] void fail(const std::string& path, const char* what, int error) {
  throw FileError(path + ": " + what + " failed: " + std::strerror(error));
}

}  // namespace

int remove_stale_temporaries(const std::string& dir) {
  int removed = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const size_t at = name.rfind(".tmp.");
    if (at == std::string::npos) continue;
    const std::string pid = name.substr(at + 5);
    if (pid.empty() || pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string::npos)
      continue;
    if (::kill(std::stoi(pid), 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to ask
    if (::unlink(entry.path().c_str()) == 0) ++removed;
  }
  return removed;
}

AtomicFile::AtomicFile(const std::string& dir, const std::string& name)
    : dir_(dir),
      path_(dir.ends_with('/') ? dir + name : dir + "/" + name),
      tmp_(path_ + ".tmp." + std::to_string(::getpid())) {
  refuse_other_than_file();
  // Without a name until committed, so that a process killed while writing leaves nothing; a file
  // system without O_TMPFILE gets the named temporary file.
  fd_ = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  named_ = fd_ < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL);
  if (named_) fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0) throw FileError(tmp_ + ": cannot create: " + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (fd_ < 0) return;  // committed
  ::close(fd_);
  if (named_) ::unlink(tmp_.c_str());
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

void AtomicFile::refuse_other_than_file() const {
  if (const std::string what = not_writable_as_file(path_); !what.empty())
    throw FileError(path_ + ": " + what +
                    " is there, not a regular file: kalah replaces only files");
}

void AtomicFile::commit() {
  refuse_other_than_file();  // what was put there while the file was written
  if (::fsync(fd_) != 0) fail(tmp_, "fsync", errno);
  // An unnamed file gets the temporary name now (linkat cannot replace a file), for a moment.
  if (!named_) {
    const std::string self = "/proc/self/fd/" + std::to_string(fd_);
    ::unlink(tmp_.c_str());  // left by a process of this number killed in that moment
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, tmp_.c_str(), AT_SYMLINK_FOLLOW) != 0)
      fail(tmp_, "linkat", errno);
    named_ = true;
  }
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
