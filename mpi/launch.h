// launch.h: `mpirun -np P kalah build ...` from the command line's side: the one call tools/
// makes into mpi/, with no MPI header in it.
#pragma once

#include <cstdint>
#include <functional>

#include "db/builder.h"

namespace kalah {

// How the command line reports the build, on process 0 only: the options as each process runs
// them, the estimated peak per process, the number of processes, and the build to run with the
// observer it chooses.
using ReportBuild =
    std::function<void(const BuildOptions& per_process, uint64_t peak, int processes,
                       const std::function<void(BuildObserver&)>& build)>;

// Starts MPI, checks the options and the memory plan, builds, and returns the exit status.
// Problems found before the processes talk are found alike by every process: process 0 throws
// them (std::invalid_argument, MemoryLimitError) and the others return the status that makes (2,
// 1) without a word. Past that, a process that fails says so on stderr and ends the job, since
// the others may be waiting for it; one that mpirun stops (SIGTERM: another process died, or the
// job was interrupted) says so and exits. Collective.
int build_over_processes(const BuildOptions& options, const ReportBuild& report);

}  // namespace kalah
