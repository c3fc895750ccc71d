// fault_watch.h: reads of a mapped file that was truncated under the process.
//
// Such a read raises SIGBUS. The handler installed here maps a zero page where the read failed,
// so that the read completes, and sets the mapping's `faulted` flag: what was read from it is not
// used for an answer. Faults elsewhere go to the handler there was before.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace kalah {

struct FaultRange {
  std::atomic<uintptr_t> begin{0}, end{0};
  std::atomic<bool>* faulted = nullptr;
};

// Watches [p, p + size) until unwatch_faults; nothing when too many mappings are watched at once
// (a truncation would then end the process).
FaultRange* watch_faults(const void* p, size_t size, std::atomic<bool>* faulted);
void unwatch_faults(FaultRange* range);

}  // namespace kalah
