// processes.cpp: under mpirun or not (processes.h); without MPI, mpi/launch.h's calls are
// never made, and exist only to say so.
#include "tools/cli/processes.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "tools/cli/cli.h"

namespace kalah {

#ifdef KALAH_MPI
constexpr bool kWithMpi = true;
#else
constexpr bool kWithMpi = false;

int build_over_processes(const BuildOptions&, const ReportBuild&) {
  throw std::logic_error("kalah was built without MPI");
}
int search_over_processes(const ProcessSearch&, const std::function<int(JobTransport&)>&) {
  throw std::logic_error("kalah was built without MPI");
}
#endif

int launched_processes() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    const char* v = std::getenv(name);
    if (!v) continue;
    const int launched = std::atoi(v);
    if (!kWithMpi && launched > 1)
      throw UsageError("started by mpirun with " + std::to_string(launched) +
                       " processes, but this kalah was built without MPI: configure it with "
                       "-DKALAH_MPI=ON (Debian: libopenmpi-dev), or run it without mpirun");
    return launched;
  }
  return 0;
}

bool under_mpirun() {
  return launched_processes() > 0 && kWithMpi;
}

}  // namespace kalah
