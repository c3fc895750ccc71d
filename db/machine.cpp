// machine.cpp: sysconf and getrusage behind two questions.
#include "db/machine.h"

#include <sys/resource.h>
#include <unistd.h>

namespace kalah {

uint64_t machine_memory() {
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
}

uint64_t peak_memory_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

}  // namespace kalah
