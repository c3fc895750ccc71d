// launch.cpp: MPI's start and end for `kalah build`, and what a stopped process says.
#include "mpi/launch.h"

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

#include "mpi/build.h"
#include "mpi/memory.h"

namespace kalah {
namespace {

// Exit statuses, as tools/cli.h has them.
constexpr int kFailure = 1, kUsage = 2;

// mpirun ends the survivors with SIGTERM when a process dies or the job is interrupted: each says
// so on its way out (write and _exit only: a signal handler).
std::string g_stopped_message;
extern "C" void on_stopped(int) {
  [[maybe_unused]] auto r =
      ::write(STDERR_FILENO, g_stopped_message.data(), g_stopped_message.size());
  std::_Exit(128 + SIGTERM);
}

std::string who(const MpiSession& mpi) {
  return "kalah build: process " + std::to_string(mpi.process()) + " of " +
         std::to_string(mpi.processes());
}

}  // namespace

int build_over_processes(const BuildOptions& options, const ReportBuild& report) {
  const MpiSession mpi;
  const bool speaker = mpi.process() == 0;
  g_stopped_message = who(mpi) +
                      ": stopped by mpirun (another process ended, or the job was interrupted); "
                      "rerun the same command to resume from the last complete layer\n";
  std::signal(SIGTERM, on_stopped);
  const BuildOptions b = for_process(options, mpi.local_processes());
  MpiMemoryPlan plan;
  try {
    validate_mpi(b);
    plan = plan_mpi_memory(b, mpi.processes());
  } catch (const std::invalid_argument&) {
    if (speaker) throw;
    return kUsage;
  } catch (const MemoryLimitError&) {
    if (speaker) throw;
    return kFailure;
  }
  try {
    const auto build = [&](BuildObserver& observer) { build_database_mpi(b, mpi, observer); };
    if (speaker) {
      report(b, plan.peak, mpi.processes(), build);
    } else {
      BuildObserver silent;
      build(silent);
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << who(mpi) << ": " << e.what()
              << "; ending the job (rerun the same command to resume from the last complete "
                 "layer)\n"
              << std::flush;
    MPI_Abort(MPI_COMM_WORLD, kFailure);
    return kFailure;
  }
}

}  // namespace kalah
