// memory.cpp: each process's share of the layers, the exchange's lists and MPI's own buffers.
#include "mpi/memory.h"

#include <algorithm>
#include <stdexcept>

#include "base/machine.h"
#include "base/threads.h"
#include "base/units.h"
#include "mpi/exchange.h"
#include "retrograde/memory_plan.h"
#include "retrograde/partition.h"

namespace kalah {
namespace {

// Open MPI's own memory in each process (its shared-memory transport's buffers, libraries).
constexpr uint64_t kMpiBytes = uint64_t{32} << 20;

}  // namespace

void validate_mpi(const BuildOptions& o) {
  validate(o);
  if (o.lean)
    throw std::invalid_argument(
        "--lean does not apply to a build over several processes: each process holds its share "
        "of every layer raw; add processes (on more machines) instead");
}

BuildOptions for_process(BuildOptions o, int local_processes) {
  if (o.threads == 0) o.threads = std::max(1, thread_count(0) / local_processes);
  if (o.memory_limit == 0) o.memory_limit = usable_memory() / local_processes;
  return o;
}

MpiMemoryPlan plan_mpi_memory(const BuildOptions& o, int processes) {
  const int threads = thread_count(o.threads);
  const Ranker ranker(o.rules.pits, o.max_seeds);
  const Partition part(ranker, o.max_seeds, processes);
  MpiMemoryPlan plan;
  plan.layer_bytes.assign(o.max_seeds + 1, 0);
  std::vector<uint64_t> raw(processes, 0);  // layers 0..s held by each process
  for (int s = 1; s <= o.max_seeds; ++s) {
    for (int p = 0; p < processes; ++p) {
      // A process's share of a layer, and about one huge page (2 MiB) a range, for the pages
      // its ends fall in.
      raw[p] += std::min(ranker.layer_size(s),
                         part.boards(s, p) + part.ranges(s, p).size() * (uint64_t{2} << 20));
      // Beside the raw layers: the exchange's lists, the process's frames of layer s while it
      // is written (files take under 0.5 bytes a board), and the MPI library's buffers.
      const uint64_t bytes = raw[p] + overhead_bytes(ranker, s, threads) +
                             (processes > 1 ? kExchangeBytes : 0) + part.boards(s, p) / 2 +
                             kMpiBytes;
      plan.layer_bytes[s] = std::max(plan.layer_bytes[s], bytes);
      if (bytes > plan.peak) {
        plan.peak = bytes;
        plan.peak_process = p;
        plan.peak_layer = s;
      }
    }
  }
  if (plan.peak > o.memory_limit)
    throw MemoryLimitError(
        "building up to " + std::to_string(o.max_seeds) + " seeds over " +
        std::to_string(processes) + (processes > 1 ? " processes" : " process") + " needs " +
        human_bytes(plan.peak) + " on process " + std::to_string(plan.peak_process) +
        " (at layer " + std::to_string(plan.peak_layer) + "); the limit per process is " +
        human_bytes(o.memory_limit) +
        " (--memory; by default this machine's memory shared among its processes): more "
        "processes on more machines, or fewer seeds");
  return plan;
}

}  // namespace kalah
