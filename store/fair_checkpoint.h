// fair_checkpoint.h: `kalah fair --checkpoint DIR` (docs/design.md §11): what a run has settled,
// kept so that a restarted run takes up where it stopped.
//
// DIR/fair-<variant>-s<seeds>-k<moved>.<key id>.log (one log a key: runs under other keys never
// touch it), text, one line per candidate as it is settled (appended and flushed at once, so a
// kill loses at most the line being written):
//
//   kalah fair checkpoint 1 m=6 capture=empty end=immediate remainder=owner seeds=4 moved=2
//   4,4,5,4,3,4,0,4,4,4,4,4,4,0,S 0 0 <mac>     absolute position, proven bounds on its margin
//
// Each line's <mac> is the keyed hash (store/keyed_hash.h) of this run's header line (as the run
// writes it, whatever the file's first line says) and of the line's own text before it: a line
// written by someone without the user's key, edited, cut short or of another run is ignored (and
// its candidate settled again), as are bounds no search could prove; every other line is kept,
// wherever the ignored ones are (CRLF endings too). One run writes a log at a time: it holds
// <log>.lock (base/dir_lock.h), and a second run on the same log is refused.
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/dir_lock.h"
#include "parallel/fair.h"
#include "store/keyed_hash.h"

namespace kalah {

class FairCheckpoint {
 public:
  // Opens (creating DIR and the log when missing) the log of this run and fills in the bounds of
  // the candidates it holds; the lines it ignores are said to `note`, one line in all. Rewrites
  // the log with the lines it trusted. Throws FileError when DIR cannot be written, when the
  // log is not a regular file or larger than its candidates' lines can be, and when another run
  // is writing it.
  FairCheckpoint(const std::string& dir, const Rules& rules, int seeds, int moved,
                 std::vector<FairCandidate>& candidates,
                 const std::function<void(const std::string&)>& note = {},
                 const RecordKey& key = RecordKey::user());
  ~FairCheckpoint();
  FairCheckpoint(const FairCheckpoint&) = delete;
  FairCheckpoint& operator=(const FairCheckpoint&) = delete;

  const std::string& path() const { return path_; }
  size_t resumed() const { return resumed_; }  // candidates whose bounds came from the log
  // Appends c's bounds. A write that fails (a full disk) is said to `note` once and the run goes
  // on: what is settled after it is not kept.
  void record(const FairCandidate& c);

 private:
  std::string line(const FairCandidate& c) const;

  const RecordKey& key_;
  int m_;
  std::string path_, header_;
  std::unique_ptr<WriterLock> lock_;
  std::function<void(const std::string&)> note_;
  std::FILE* file_ = nullptr;
  size_t resumed_ = 0;
};

}  // namespace kalah
