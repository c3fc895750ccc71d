// block_cache_tsan.cpp: the database's shared block cache under ThreadSanitizer.
//
// Threads started with std::thread (which ThreadSanitizer sees, unlike oneTBB's uninstrumented
// hand-offs) probe the same fresh blocks at once, in both cache modes: resident (blocks decoded
// in place, read without a lock) and evicting (CLOCK under shard locks, a cache far smaller than
// the database). Every answer must equal a single thread's. Usage: block_cache_tsan DIR, where DIR
// holds an m = 5 database of the standard rules up to 12 seeds (scripts/sanitize.sh builds it).
#include <atomic>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include "db/database.h"

using namespace kalah;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: block_cache_tsan DIR\n");
    return 2;
  }
  const Rules rules{5, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  const Database reference(argv[1], rules);
  std::mt19937_64 rng(11);
  std::vector<Board> boards(20000);
  std::vector<int> expected;
  for (auto& b : boards) {
    const int s = 1 + static_cast<int>(rng() % reference.max_seeds());
    b = reference.ranker().unrank(
        s, std::uniform_int_distribution<uint64_t>(0, reference.ranker().layer_size(s) - 1)(rng));
    expected.push_back(*reference.probe(b));
  }
  int passed = 0, failed = 0;
  for (size_t cache : {size_t{1} << 40, size_t{1} << 18}) {
    const Database db(argv[1], rules, cache);
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        for (size_t i = 0; i < boards.size(); ++i) {
          const size_t k = (i * 7 + t * 1009) % boards.size();  // each thread its own order
          if (*db.probe(boards[k]) != expected[k]) ++wrong;
        }
      });
    for (auto& t : threads) t.join();
    (wrong == 0 ? passed : failed)++;
    std::printf("cache %zu bytes: %d wrong answers\n", cache, wrong.load());
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
