// launch.cpp: MPI's start and end for `kalah build`, and what a stopped process says.
#include "mpi/launch.h"

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

#include "base/threads.h"
#include "mpi/build.h"
#include "mpi/memory.h"
#include "mpi/search.h"

namespace kalah {
namespace {

// Exit statuses, as tools/cli/cli.h has them.
constexpr int kFailure = 1, kUsage = 2;

// mpirun ends the survivors with SIGTERM when a process dies or the job is interrupted: each says
// so on its way out (write and _exit only: a signal handler).
std::string g_stopped_message;
extern "C" void on_stopped(int) {
  [[maybe_unused]] auto r =
      ::write(STDERR_FILENO, g_stopped_message.data(), g_stopped_message.size());
  std::_Exit(128 + SIGTERM);
}

std::string who(const MpiSession& mpi, const char* command = "build") {
  return std::string("kalah ") + command + ": process " + std::to_string(mpi.process()) + " of " +
         std::to_string(mpi.processes());
}

// Says why this process fails and ends the job: the others may be waiting for it.
[[noreturn]] void end_job(const MpiSession& mpi, const char* command, const std::exception& e,
                          const char* resume) {
  std::cerr << who(mpi, command) << ": " << e.what() << "; ending the job (" << resume << ")\n"
            << std::flush;
  MPI_Abort(MPI_COMM_WORLD, kFailure);
  std::_Exit(kFailure);
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
    end_job(mpi, "build", e, "rerun the same command to resume from the last complete layer");
  }
}

int search_over_processes(const ProcessSearch& setup,
                          const std::function<int(JobTransport&)>& manage) {
  const MpiSession mpi;
  constexpr const char* kResume =
      "rerun the same command; with --checkpoint DIR it goes on from "
      "the last checkpoint";
  g_stopped_message = who(mpi, "solve") +
                      ": stopped by mpirun (another process ended, or the job was interrupted); " +
                      kResume + "\n";
  std::signal(SIGTERM, on_stopped);
  // Process 0 opens the leaves first: a problem there is the user's, said once.
  const LeafValues* leaves = nullptr;
  int opened = 1;
  if (mpi.process() == 0) {
    try {
      leaves = setup.open();
    } catch (...) {
      opened = 0;
      check(MPI_Bcast(&opened, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
      throw;
    }
  }
  check(MPI_Bcast(&opened, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
  if (!opened) return kFailure;
  try {
    if (mpi.process() != 0) leaves = setup.open();
    const int slots =
        setup.threads ? setup.threads : std::max(1, thread_count(0) / mpi.local_processes());
    SlotPool pool(setup.rules, leaves, slots, setup.table_bytes(leaves), setup.stop);
    if (mpi.process() != 0) {
      serve_jobs(mpi, pool);
      return 0;
    }
    MpiTransport transport(mpi, pool);
    return manage(transport);
  } catch (const std::exception& e) {
    end_job(mpi, "solve", e, kResume);
  }
}

}  // namespace kalah
