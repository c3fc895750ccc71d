// interrupt.h: Ctrl-C as a stop (kalah solve, book): the search ends with the bounds it proved.
#pragma once

#include "base/stop.h"

namespace kalah {

// The flag SIGINT raises (kStop) from now on; the same flag on every call.
const StopFlag& stop_on_interrupt();

}  // namespace kalah
