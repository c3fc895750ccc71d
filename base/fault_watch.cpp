// fault_watch.cpp: the SIGBUS handler of mapped files (fault_watch.h).
#include "base/fault_watch.h"

#include <signal.h>
#include <sys/mman.h>

#include <mutex>

namespace kalah {
namespace {

constexpr int kFaultRanges = 4096;  // files mapped at once (a server of many variants: hundreds)
FaultRange g_ranges[kFaultRanges];
struct sigaction g_previous_sigbus;

extern "C" void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto at = reinterpret_cast<uintptr_t>(info->si_addr);
  for (FaultRange& r : g_ranges) {
    if (at < r.begin.load(std::memory_order_acquire) || at >= r.end.load(std::memory_order_acquire))
      continue;
    const uintptr_t page = at & ~uintptr_t{4095};
    ::mmap(reinterpret_cast<void*>(page), 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
           -1, 0);
    r.faulted->store(true);
    return;
  }
  if (g_previous_sigbus.sa_flags & SA_SIGINFO)
    return g_previous_sigbus.sa_sigaction(sig, info, context);
  if (g_previous_sigbus.sa_handler != SIG_DFL && g_previous_sigbus.sa_handler != SIG_IGN)
    return g_previous_sigbus.sa_handler(sig);
  ::signal(SIGBUS, SIG_DFL);  // the fault repeats, with the default action
}

}  // namespace

FaultRange* watch_faults(const void* p, size_t size, std::atomic<bool>* faulted) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction sa {};
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGBUS, &sa, &g_previous_sigbus);
  });
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  for (FaultRange& r : g_ranges)
    if (r.end.load() == 0) {
      r.faulted = faulted;
      r.begin.store(reinterpret_cast<uintptr_t>(p));
      r.end.store(reinterpret_cast<uintptr_t>(p) + size, std::memory_order_release);
      return &r;
    }
  return nullptr;  // more files mapped than watched: a truncation would then end the process
}

void unwatch_faults(FaultRange* r) {
  if (!r) return;
  r->end.store(0);
  r->begin.store(0);
}

}  // namespace kalah
