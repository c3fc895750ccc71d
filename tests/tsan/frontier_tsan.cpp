// frontier_tsan.cpp: the search spread over processes (parallel/frontier_search.h), its processes
// simulated in this one (parallel/slot_pool.h), under ThreadSanitizer: the manager's thread, and
// each process's search threads (std::thread) over one shared table that grows while they
// search, with jobs cancelled and leaves refined under them. Every value must equal a lone
// solver's.
#include <cstdio>
#include <random>

#include "db/rank.h"
#include "parallel/frontier_analysis.h"
#include "parallel/slot_pool.h"
#include "solver/solver.h"

using namespace kalah;

int main() {
  const Rules rules{5, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  const Ranker ranker(5, 24);
  std::mt19937_64 rng(28);
  Solver lone(rules, size_t{64} << 20);
  // Two processes of three threads, tables that start small and must grow.
  LocalTransport transport(rules, nullptr, 2, 3, size_t{16} << 20, nullptr);
  int wrong = 0, boards = 0;
  uint64_t jobs = 0;
  for (int i = 0; i < 12; ++i) {
    const int s = 18 + static_cast<int>(rng() % 7);
    Position p;
    p.board =
        ranker.unrank(s, std::uniform_int_distribution<uint64_t>(0, ranker.layer_size(s) - 1)(rng));
    FrontierStats stats;
    const SearchResult v = value_frontier({.rules = rules}, p, transport,
                                          FrontierOptions{.leaves_per_slot = 2}, &stats);
    wrong += v.margin.lower != lone.value(p.board) || !v.margin.exact();
    jobs += stats.jobs;
    ++boards;
  }
  std::printf("frontier search over 2 x 3 threads: %d wrong values of %d, %llu jobs\n", wrong,
              boards, static_cast<unsigned long long>(jobs));
  return wrong == 0 && jobs > 0 ? 0 : 1;
}
