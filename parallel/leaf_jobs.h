// leaf_jobs.h: the work of a search spread over processes, between its manager
// (parallel/frontier_search.h) and the search threads that do it (parallel/slot_pool.h, or other
// processes' through mpi/search.h): a job is one null-window test on a leaf of the manager's
// frontier, an answer what it proved; the transport carries them; the manager's options and
// counts (docs/design.md §7, "Over several processes").
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "game/rules.h"

namespace kalah {

// "Is V(board) at least beta?" (32 bytes on the wire).
struct LeafJob {
  uint64_t id;
  Board board;
  int32_t beta;
  int32_t unused = 0;
};
// What a job proved: lower <= V(board) <= upper (nothing, -s and s, when it was cancelled), and
// what it cost (40 bytes on the wire).
struct LeafAnswer {
  uint64_t id;
  int16_t lower, upper;
  uint32_t unused = 0;
  uint64_t nodes = 0, probes = 0;
  uint64_t microseconds = 0;
};
static_assert(sizeof(LeafJob) == 32 && sizeof(LeafAnswer) == 40);

// The answer of a job that proved nothing: the bounds every board of its seeds has.
inline LeafAnswer nothing_proven(const LeafJob& job) {
  const int s = seeds(job.board);
  return {job.id, static_cast<int16_t>(-s), static_cast<int16_t>(s), 0, 0};
}

// The process the subtree of a root move's board goes to first ("home"; the boards below it
// inherit it, their subtrees transpose), until an idle process takes a job its home had no
// thread for and becomes that leaf's home. A hash of its own: the tables' buckets take the low
// bits of theirs, which a process's boards would then share.
inline uint64_t owner_hash(const Board& b) {
  uint64_t w[2];
  std::memcpy(w, b.pits.data(), sizeof w);
  uint64_t h = (w[0] ^ (w[1] * 0xD6E8FEB86659FD93ull)) + 0x9E3779B97F4A7C15ull;
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  return h ^ (h >> 31);
}
inline int owner_process(const Board& b, int processes) {
  return static_cast<int>(owner_hash(b) % processes);
}

// How the manager grows its frontier (parallel/frontier_search.h).
struct FrontierOptions {
  int leaves_per_slot = 16;  // the frontier deepens a ply at a time until it has this many a slot
  int max_depth = 12;        // plies, at most
  // Boards the DAG may hold (a few hundred bytes each): past it, the frontier grows no more.
  size_t max_nodes = size_t{1} << 22;
  // A job running longer is cancelled and its leaf refined, busy processes or not: answers, and
  // with them the nodes reported and the bounds a checkpoint keeps, come at least this often (a
  // job's own work is lost to a kill, not to the cancel: its table keeps it).
  double longest_job_seconds = 10;
};

// Counts of a frontier search, for progress and notes.
struct FrontierStats {
  uint64_t nodes = 0;  // searched by the slots, answers of cancelled jobs included
  uint64_t probes = 0;
  std::vector<uint64_t> nodes_by_process;
  int slots = 0;            // search threads of all processes
  double busy_seconds = 0;  // the slots' time in jobs, all added up
  uint64_t jobs = 0, cancelled = 0, refined = 0, bytes = 0;
  size_t dag_nodes = 0, leaves = 0;
};

// Where jobs go: MPI's processes (mpi/search.h) or pools in this process (LocalTransport).
class JobTransport {
 public:
  virtual ~JobTransport() = default;
  virtual int processes() const = 0;
  virtual int slots(int process) const = 0;  // its search threads
  virtual void submit(int process, const LeafJob& job) = 0;
  virtual void cancel(int process, uint64_t id) = 0;
  // Sends what was submitted and cancelled, then returns the answers that came in, waiting up to
  // `seconds` for one.
  virtual std::vector<LeafAnswer> exchange(double seconds) = 0;
  // Bytes sent both ways so far (0 within a process).
  virtual uint64_t bytes() const { return 0; }
};

}  // namespace kalah
