// regular_file.h: reading a file kalah keeps (a record, a checkpoint, a log, a key) without
// trusting what is at its name: a FIFO, a device or a directory is refused at once (opened
// without blocking, never read), and a file larger than the caller's bound is refused before
// anything is allocated.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>

namespace kalah {

struct FileRead {
  enum class Status {
    kRead,        // `text` holds the whole file
    kMissing,     // nothing at the name
    kNotRegular,  // a FIFO, a device, a socket or a directory: not read
    kTooBig,      // larger than the bound: not read
    kUnreadable,  // it could not be opened or read (permissions, I/O, too many open files)
  };
  Status status = Status::kMissing;
  std::string text;
  std::string why;  // for anything but kRead: what is wrong, in words
};

// Reads the regular file at `path` (following symbolic links) whole, if it holds at most
// `max_bytes`.
FileRead read_regular_file(const std::string& path, uint64_t max_bytes);

// Why kalah must not write a file at `path` (replacing what is there): "" when nothing is there
// or a regular file is; else what is there ("a directory", "a device", "a symbolic link", "a
// FIFO", "a socket"). A link is never written through nor replaced: what it points to is not
// kalah's to change.
std::string not_writable_as_file(const std::string& path);

// A file's size, modification time and change time. A file kept open and mapped is compared with
// its stamp at open to find it changed under the process: writing in place or truncating changes
// the size or the modification time, unless a tool puts the time back (`rsync --inplace --times`,
// `touch -d`); the change time it cannot put back, but a chmod, a link or a rename moves it too,
// so a change of that time alone asks for the bytes to be compared (db/layer_file.h).
struct FileStamp {
  int64_t size = -1, mtime_ns = -1, ctime_ns = -1;  // -1: fstat failed, unlike any file's
  static FileStamp of(const struct stat& st);
  static FileStamp of(int fd);
  bool operator==(const FileStamp&) const = default;
  // Size and modification time equal: what a write leaves unless the time was put back.
  bool same_size_and_mtime(const FileStamp& o) const {
    return size == o.size && mtime_ns == o.mtime_ns;
  }
};

}  // namespace kalah
