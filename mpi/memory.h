// memory.h: what each process of a build over several processes holds, planned before it starts.
#pragma once

#include <cstdint>
#include <vector>

#include "retrograde/builder.h"

namespace kalah {

// validate(), and what a build over several processes does not take (--lean); throws
// std::invalid_argument.
void validate_mpi(const BuildOptions& o);

// The options as a process runs them: threads 0 is the machine's cores divided among the
// processes on it (`local_processes`), memory_limit 0 the usable memory (base/machine.h)
// divided among them.
BuildOptions for_process(BuildOptions o, int local_processes);

// What each process would hold: the most of any process at each layer, and overall.
struct MpiMemoryPlan {
  std::vector<uint64_t> layer_bytes;  // [s]
  uint64_t peak = 0;
  int peak_process = 0, peak_layer = 0;
};
// For options as a process runs them (for_process); throws MemoryLimitError when a process's
// estimate exceeds o.memory_limit.
MpiMemoryPlan plan_mpi_memory(const BuildOptions& o, int processes);

}  // namespace kalah
