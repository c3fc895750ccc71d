// mpi_build.h: the build of a database over several processes with MPI (docs/design.md §5),
// compiled with -DKALAH_MPI=ON and run as `mpirun -np P kalah build ...`.
//
// The same files as the single-machine build, byte for byte, for any P and thread count. Each
// rank computes the row pairs of each layer that db/partition.h gives it and keeps their boards
// raw for the layers above, about 1/P of what the single-machine build holds. A chunk of boards
// lists the children that other ranks hold and asks for them in one exchange round (MPI
// all-to-all: the keys out, the values back), never one message per board; every rank takes
// part in every round, so ranks that have finished a layer keep answering until all have. Each
// block of a layer file is compressed by the rank that holds its first board, and rank 0 gathers
// the frames in order and writes the file, which is atomic as ever: a job killed at any moment
// loses at most the layer in progress, and its rerun resumes.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "db/builder.h"

namespace kalah {

// MPI for the life of the object (threads: only the one that made it calls MPI).
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  // Ranks on this machine (they share its memory and cores).
  int local_ranks() const { return local_ranks_; }

 private:
  int rank_ = 0, ranks_ = 1, local_ranks_ = 1;
};

// validate(), and what a build over several processes does not take (--lean); throws
// std::invalid_argument.
void validate_mpi(const BuildOptions& o);

// What each rank would hold: the most of any rank at each layer, and overall.
struct MpiMemoryPlan {
  std::vector<uint64_t> layer_bytes;  // [s]
  uint64_t peak = 0;
  int peak_rank = 0, peak_layer = 0;
};
// For options as a rank runs them (for_rank); throws MemoryLimitError when a rank's estimate
// exceeds o.memory_limit.
MpiMemoryPlan plan_mpi_memory(const BuildOptions& o, int ranks);

// The options as a rank runs them: threads 0 is the rank's cores divided among the ranks on its
// machine, memory_limit 0 the machine's memory divided among them.
BuildOptions for_rank(BuildOptions o, const MpiSession& mpi);

// build_database over the ranks of MPI_COMM_WORLD; every rank calls it with the same options
// (threads and memory_limit per rank, as for_rank takes them). Rank 0 takes the directory's lock,
// writes the files and reports to its observer; the others report nothing. Throws as build_database
// does; after a throw from inside the build the other ranks may be waiting for this one: end the
// job (MPI_Abort).
void build_database_mpi(const BuildOptions& o, const MpiSession& mpi, BuildObserver& observer);

}  // namespace kalah
