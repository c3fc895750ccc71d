// machine.cpp: sysconf, the cgroup files, getrlimit and getrusage behind its questions.
#include "base/machine.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace kalah {
namespace {

// The number in a cgroup limit file, or UINT64_MAX for "max", a missing or an unreadable file.
uint64_t limit_in(const std::string& path) {
  std::ifstream in(path);
  uint64_t v = 0;
  return in >> v ? v : UINT64_MAX;
}

// The least memory limit of the cgroup this process is in and of its ancestors.
uint64_t cgroup_limit() {
  std::ifstream in("/proc/self/cgroup");
  uint64_t least = UINT64_MAX;
  for (std::string line; std::getline(in, line);) {
    // "0::/path" (v2), or "N:controllers:/path" (v1) with "memory" among the controllers.
    const size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    std::string path = line.substr(b + 1);
    std::string base, file;
    if (controllers.empty()) {
      base = "/sys/fs/cgroup";
      file = "/memory.max";
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      base = "/sys/fs/cgroup/memory";
      file = "/memory.limit_in_bytes";
    } else {
      continue;
    }
    if (path == "/") path.clear();
    for (;;) {  // the cgroup, then each ancestor up to the root
      least = std::min(least, limit_in(base + path + file));
      if (path.empty()) break;
      path.resize(path.rfind('/'));
    }
  }
  return least;
}

}  // namespace

uint64_t usable_memory() {
  uint64_t bytes = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  bytes = std::min(bytes, cgroup_limit());
  rlimit as{};
  constexpr uint64_t kAddressSpaceOverhead = uint64_t{256} << 20;
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    bytes = std::min<uint64_t>(bytes, as.rlim_cur > 2 * kAddressSpaceOverhead
                                          ? as.rlim_cur - kAddressSpaceOverhead
                                          : as.rlim_cur / 2);
  return bytes;
}

int processes_on_this_machine() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"})
    if (const char* value = std::getenv(name)) {
      const long n = std::strtol(value, nullptr, 10);
      if (n >= 1 && n <= 4096) return static_cast<int>(n);
    }
  return 1;
}

uint64_t peak_memory_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

}  // namespace kalah
