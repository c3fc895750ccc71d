// build.h: the build of a database over several processes (docs/design.md §5), run as
// `mpirun -np P kalah build ...` by a kalah configured with -DKALAH_MPI=ON.
//
// The same files as the single-machine build, byte for byte, for any P and thread count. Each
// process computes the row pairs of each layer that retrograde/partition.h gives it and keeps their
// boards raw for the layers above, about 1/P of what the single-machine build holds. A chunk of
// boards lists the children that other processes hold and asks for them in one exchange round
// (mpi/exchange.h); each block of a layer file is compressed by the process that holds its first
// board, and process 0 gathers the frames in order and writes the file (mpi/io.h), which is
// atomic as ever: a job killed at any moment loses at most the layer in progress, and its rerun
// resumes.
#pragma once

#include "mpi/session.h"
#include "retrograde/builder.h"

namespace kalah {

// build_database over the processes of MPI_COMM_WORLD; every process calls it with the same
// options (threads and memory_limit 0 become for_process's shares). Process 0 takes the
// directory's lock, writes the files and reports to its observer; the others report nothing.
// Throws as build_database does; after a throw from inside the build the other processes may be
// waiting for this one: end the job (MPI_Abort). Collective.
void build_database_mpi(const BuildOptions& options, const MpiSession& mpi,
                        BuildObserver& observer);

}  // namespace kalah
