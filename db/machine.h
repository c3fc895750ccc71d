// machine.h: what this process can learn of the machine it runs on and of its own footprint.
#pragma once

#include <cstdint>

namespace kalah {

// The machine's physical memory, in bytes.
uint64_t machine_memory();
// The process's peak resident memory so far (getrusage), in bytes.
uint64_t peak_memory_bytes();

}  // namespace kalah
