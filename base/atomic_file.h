// atomic_file.h: a file that appears under its name only once complete and on disk.
//
// Written to a file without a name (O_TMPFILE), so that a process killed while writing leaves
// nothing behind; on commit it is synced, linked as NAME.tmp.PID (a name of its own: even a second
// writer that ignored the directory lock could not write into it), renamed to NAME and the
// directory synced. Where the file system has no O_TMPFILE it is written under NAME.tmp.PID from
// the start (remove_stale_temporaries() clears what killed writers left). Destroyed before
// commit(), it leaves nothing. Every error is a FileError naming the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kalah {

// Removes the files NAME.tmp.PID in dir whose process PID is gone (kill(PID, 0) says so): what a
// writer killed in the moment between naming its file and renaming it left. Returns how many.
int remove_stale_temporaries(const std::string& dir);

class AtomicFile {
 public:
  // Creates the temporary file in dir for dir/name. Throws FileError when something other than a
  // regular file is at dir/name (a device, a directory, a link: base/regular_file.h), here and
  // again at commit(): kalah replaces only files.
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
  void refuse_other_than_file() const;

  std::string dir_, path_, tmp_;
  int fd_ = -1;
  bool named_ = false;  // the data is under tmp_ (else in a file without a name, O_TMPFILE)
  uint64_t end_ = 0;    // where write() appends
};

}  // namespace kalah
