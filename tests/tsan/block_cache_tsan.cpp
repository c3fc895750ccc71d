// block_cache_tsan.cpp: the database's shared block cache under ThreadSanitizer.
//
// Threads started with std::thread (which ThreadSanitizer sees, unlike oneTBB's uninstrumented
// hand-offs) probe the same fresh blocks at once, in every cache mode: resident from decoded
// copies (mapped), resident without them (blocks decoded in place, read without a lock), and
// evicting (CLOCK under shard locks, a cache far smaller than the database). Every answer must
// equal a single thread's. oneTBB, which writes the decoded copies, is held to the main thread.
// Usage: block_cache_tsan DIR, where DIR holds an m = 5 database of the standard rules up to 12
// seeds (scripts/sanitize.sh builds it).
#include <tbb/global_control.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "db/database.h"

using namespace kalah;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: block_cache_tsan DIR\n");
    return 2;
  }
  const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  const Rules rules{5, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  const std::string dir = argv[1];
  // The same layers where decoded copies cannot be written: a file stands where their
  // directory would go.
  const std::string plain = dir + "/without-copies";
  std::filesystem::create_directory(plain);
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".kdb")
      std::filesystem::create_symlink(entry.path(), plain + "/" + entry.path().filename().string());
  std::ofstream(plain + "/decoded") << "not a directory";
  const Database reference(dir, rules, size_t{1} << 10);
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
  const std::pair<std::string, size_t> modes[] = {
      {dir, size_t{1} << 40}, {plain, size_t{1} << 40}, {dir, size_t{1} << 18}};
  for (const auto& [where, cache] : modes) {
    const Database db(where, rules, cache);
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
    std::printf("%s, cache %zu bytes: %d wrong answers\n", where.c_str(), cache, wrong.load());
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
