// machine.h: what this process can learn of the memory it may use and of its own footprint.
#pragma once

#include <cstdint>

namespace kalah {

// The memory this process may use, in bytes: the machine's physical memory, or less where a
// limit says so: the memory cgroup it runs in (cgroup v2 memory.max, v1 memory.limit_in_bytes,
// the least along its path) or its address-space limit (RLIMIT_AS, `ulimit -v`), less 256 MiB
// of that for the libraries, thread stacks and malloc arenas that count against it. The default
// of every memory limit and cache size.
uint64_t usable_memory();
// How many processes of this program share the machine, as an MPI launcher says
// (OMPI_COMM_WORLD_LOCAL_SIZE, MPI_LOCALNRANKS); 1 outside one. Each takes its share of memory.
int processes_on_this_machine();
// The process's peak resident memory so far (getrusage), in bytes.
uint64_t peak_memory_bytes();

}  // namespace kalah
