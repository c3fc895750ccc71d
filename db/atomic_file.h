// atomic_file.h: a file that appears under its name only once complete and on disk.
//
// Written to NAME.tmp.PID (a name of its own: even a second writer that ignored the directory lock
// could not write into it), then synced, renamed to NAME and the directory synced. Destroyed
// before commit(), it removes the temporary file. Every error is a DatabaseError naming the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kalah {

class AtomicFile {
 public:
  // Creates the temporary file in dir for dir/name.
  AtomicFile(const std::string& dir, const std::string& name);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::string& tmp_path() const { return tmp_; }
  // Appends after what write() wrote before / writes at `offset` (thread-safe for disjoint
  // ranges).
  void write(const void* data, size_t size);
  void write_at(const void* data, size_t size, uint64_t offset) const;
  // Syncs, renames into place and syncs the directory.
  void commit();

 private:
  std::string dir_, path_, tmp_;
  int fd_ = -1;
  uint64_t end_ = 0;  // where write() appends
};

}  // namespace kalah
