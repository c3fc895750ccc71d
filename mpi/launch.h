// launch.h: `mpirun -np P kalah build|solve ...` from the command line's side: the calls tools/
// makes into mpi/, with no MPI header in them.
#pragma once

#include <cstdint>
#include <functional>

#include "base/stop.h"
#include "parallel/leaf_jobs.h"
#include "retrograde/builder.h"
#include "game/leaf_values.h"

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

// What `kalah solve` gives every process: the rules, the search's leaves, opened by `open`
// (process 0 first, which writes the decoded copies the others then map; null for none), the
// search threads of a process and their table, and the flag that stops its searches.
struct ProcessSearch {
  Rules rules;
  int threads = 0;  // slots a process; 0: the cores of its machine divided among its processes
  std::function<const LeafValues*()> open;
  std::function<size_t(const LeafValues*)> table_bytes;  // a process's table
  const StopFlag* stop = nullptr;
};

// Starts MPI; process 0 runs `manage` over a transport to every process's slots (its own
// included) and returns its exit status; the others run the jobs it sends until it is done and
// return 0. A failure to open the leaves on process 0 is thrown there (the others return 1);
// past that, a process that fails says so and ends the job. Collective.
int search_over_processes(const ProcessSearch& setup,
                          const std::function<int(JobTransport&)>& manage);

}  // namespace kalah
