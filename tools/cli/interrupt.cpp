// interrupt.cpp: the SIGINT handler of interrupt.h.
#include "tools/cli/interrupt.h"

#include <csignal>

namespace kalah {
namespace {

StopFlag interrupted;  // a signal handler can reach only a static (a lock-free raise)

extern "C" void on_interrupt(int) {
  interrupted.raise(StopReason::kStop);
}

}  // namespace

const StopFlag& stop_on_interrupt() {
  std::signal(SIGINT, on_interrupt);
  return interrupted;
}

}  // namespace kalah
