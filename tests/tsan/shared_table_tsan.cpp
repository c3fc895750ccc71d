// shared_table_tsan.cpp: the transposition table shared by the threads of a parallel search,
// under ThreadSanitizer.
//
// Threads started with std::thread (which ThreadSanitizer sees, unlike oneTBB's hand-offs), each
// a Solver over one shared table (bucket spinlocks, ABDADA marks), value the same boards at once
// in different orders; every value must equal a lone solver's with a table of its own.
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include "db/rank.h"
#include "solver/solver.h"

using namespace kalah;

int main() {
  const Rules rules{4, Capture::kEmpty, End::kImmediate, Remainder::kOwner};
  const Ranker ranker(4, 20);
  std::mt19937_64 rng(7);
  std::vector<Board> boards(1000);
  std::vector<int> expected;
  Solver lone(rules, 1 << 20);
  for (auto& b : boards) {
    const int s = 10 + static_cast<int>(rng() % 11);
    b = ranker.unrank(s, std::uniform_int_distribution<uint64_t>(0, ranker.layer_size(s) - 1)(rng));
    expected.push_back(lone.value(b));
  }
  // A small table: threads meet in the same buckets and evict each other's entries.
  TranspositionTable table(1 << 16, true);
  constexpr int kThreads = 4;
  std::vector<int> wrong(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      Solver solver(rules, table, nullptr);
      for (size_t i = 0; i < boards.size(); ++i) {
        const size_t k = (i * (2 * t + 1) + 37 * t) % boards.size();  // an order per thread
        wrong[t] += solver.value(boards[k]) != expected[k];
      }
    });
  for (auto& t : threads) t.join();
  int total = 0;
  for (int w : wrong) total += w;
  std::printf("%d threads over one shared table: %d wrong values of %zu\n", kThreads, total,
              kThreads * boards.size());
  return total == 0 ? 0 : 1;
}
