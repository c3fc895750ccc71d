// threads.cpp: thread counts through oneTBB.
#include "base/threads.h"

#include <tbb/global_control.h>
#include <tbb/info.h>

#include <stdexcept>
#include <string>

namespace kalah {

int thread_count(int requested) {
  if (requested < 0 || requested > 4096)
    throw std::invalid_argument("threads must be 0 (all cores) to 4096, got " +
                                std::to_string(requested));
  return requested > 0 ? requested : tbb::info::default_concurrency();
}

ThreadLimit::ThreadLimit(int requested)
    : threads_(thread_count(requested)),
      control_(std::make_shared<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                     threads_)) {}

ThreadLimit::~ThreadLimit() = default;

}  // namespace kalah
