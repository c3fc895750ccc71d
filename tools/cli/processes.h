// processes.h: `kalah build` and `kalah solve` under mpirun: whether this run goes over the
// processes mpirun started, and the calls into mpi/launch.h that hand the work to them. The one
// place in tools/ that knows whether kalah was built with MPI (-DKALAH_MPI=ON).
#pragma once

#include "mpi/launch.h"

namespace kalah {

// The processes of the job when mpirun (Open MPI, or a PMI launcher) started this one; else 0.
// Throws UsageError for more than one when this kalah was built without MPI.
int launched_processes();

// Whether the work goes over the processes: started by mpirun and built with MPI (then
// build_over_processes and search_over_processes, mpi/launch.h, run it).
bool under_mpirun();

}  // namespace kalah
