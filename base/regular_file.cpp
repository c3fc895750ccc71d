// regular_file.cpp: bounded reads of regular files only (base/regular_file.h).
#include "base/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kalah {

FileRead read_regular_file(const std::string& path, uint64_t max_bytes) {
  FileRead r;
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const bool missing = errno == ENOENT;
    r.status = missing ? FileRead::Status::kMissing : FileRead::Status::kUnreadable;
    r.why = missing ? "no such file" : std::string("cannot be opened: ") + std::strerror(errno);
    return r;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    r.status = FileRead::Status::kUnreadable;
    r.why = std::string("cannot be read: ") + std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    r.status = FileRead::Status::kNotRegular;
    r.why = S_ISDIR(st.st_mode) ? "a directory, not a file" : "not a regular file";
  } else if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    r.status = FileRead::Status::kTooBig;
    r.why = std::to_string(st.st_size) + " bytes, more than the " + std::to_string(max_bytes) +
            " such a file may hold";
  } else {
    r.text.resize(static_cast<size_t>(st.st_size));
    size_t got = 0;
    while (got < r.text.size()) {
      const ssize_t n = read(fd, r.text.data() + got, r.text.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    r.text.resize(got);  // a file that shrank as it was read is what was read
    r.status = FileRead::Status::kRead;
  }
  close(fd);
  return r;
}

std::string not_writable_as_file(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return "";  // nothing there (or nothing kalah can see)
  if (S_ISREG(st.st_mode)) return "";
  return S_ISDIR(st.st_mode)                          ? "a directory"
         : S_ISLNK(st.st_mode)                        ? "a symbolic link"
         : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
         : S_ISFIFO(st.st_mode)                       ? "a FIFO"
         : S_ISSOCK(st.st_mode)                       ? "a socket"
                                                      : "not a regular file";
}

FileStamp FileStamp::of(const struct stat& st) {
  return {st.st_size, int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec,
          int64_t{st.st_ctim.tv_sec} * 1000000000 + st.st_ctim.tv_nsec};
}

FileStamp FileStamp::of(int fd) {
  struct stat st;
  return ::fstat(fd, &st) == 0 ? of(st) : FileStamp{};
}

}  // namespace kalah
