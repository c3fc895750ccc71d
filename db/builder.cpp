// builder.cpp: the resumable build of a database directory.
#include "db/builder.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "db/block_cache.h"
#include "db/dir_lock.h"
#include "db/file_names.h"
#include "solver/huge_array.h"
#include "solver/threads.h"

namespace kalah {
namespace {

uint64_t machine_memory() {
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
}

// Beside the raw layers: 64 MiB for buffers and code, and the row tables (db/row_moves.h) of the
// row pairs in flight, one per thread, the largest holding the rows of s seeds.
uint64_t overhead_bytes(const Ranker& ranker, int s, int threads) {
  const uint64_t rows = ranker.row_count(s) + 1;
  return (uint64_t{64} << 20) + static_cast<uint64_t>(threads) * rows * (33 * ranker.pits() + 16);
}

// Layers s and s-1, the ones lean mode holds raw.
uint64_t lean_raw_bytes(const Ranker& ranker, int s) {
  return ranker.layer_size(s) + (s > 0 ? ranker.layer_size(s - 1) : 0);
}
constexpr uint64_t kMinCacheBytes = uint64_t{1} << 20;  // a block per shard: slow, but correct

// Removes the temporary files of interrupted builds: with the directory locked, none is live.
void remove_temporary_files(const std::string& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("kalah-", 0) == 0 && name.find(".kdb.tmp") != std::string::npos)
      std::filesystem::remove(entry.path());
  }
}

// Which layers are on disk and valid (checksums included). A damaged file of this format is
// rebuilt; any other problem (another format or version, contradicting fields, a file that
// cannot be read) stops the build before it touches anything.
std::vector<bool> valid_layers(const BuildOptions& o, BuildObserver& observer) {
  std::vector<bool> valid(o.max_seeds + 1, false);
  for (int s = 1; s <= o.max_seeds; ++s) {
    const std::string path = layer_path(o.dir, o.rules, s);
    if (!std::filesystem::exists(std::filesystem::symlink_status(path))) continue;
    try {
      LayerFile(path, o.rules, s).check_body();
      valid[s] = true;
    } catch (const DatabaseError& e) {
      if (e.problem != DatabaseError::Problem::kDamaged)
        throw DatabaseError(std::string(e.what()) +
                                "; the build stops and leaves it as it is (it rebuilds only its "
                                "own damaged files: move this one away to rebuild the layer)",
                            e.problem);
      observer.note(std::string(e.what()) + "; rebuilding it");
    }
  }
  return valid;
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

// Normal mode if every layer fits raw; else lean mode with what the limit leaves for the cache.
MemoryPlan plan_memory(const BuildOptions& o, const Ranker& ranker) {
  const uint64_t limit = o.memory_limit ? o.memory_limit : machine_memory();
  MemoryPlan plan;
  const int threads = thread_count(o.threads);
  plan.peak = build_memory_estimate(ranker, o.max_seeds, threads);
  if (plan.peak <= limit && !o.lean) return plan;
  auto lean_without_cache = [&](int s) {
    return lean_raw_bytes(ranker, s) + overhead_bytes(ranker, s, threads);
  };
  const uint64_t raw = lean_without_cache(o.max_seeds);
  if (raw + kMinCacheBytes <= limit) {
    plan.lean = true;
    plan.cache_bytes = limit - raw;
    plan.peak = raw + plan.cache_bytes;
    return plan;
  }
  int fits = 0;
  while (fits < o.max_seeds && lean_without_cache(fits + 1) + kMinCacheBytes <= limit) ++fits;
  throw MemoryLimitError("building up to " + std::to_string(o.max_seeds) + " seeds needs " +
                         std::to_string(plan.peak >> 20) + " MiB, or " +
                         std::to_string((raw + kMinCacheBytes) >> 20) +
                         " MiB in lean mode; the memory limit is " + std::to_string(limit >> 20) +
                         " MiB (up to " + std::to_string(fits) + " seeds would fit)");
}

void validate(const BuildOptions& o) {
  validate(o.rules);
  if (o.max_seeds < 1 || o.max_seeds > max_layer(o.rules))
    throw std::invalid_argument("max seeds must be 1.." + std::to_string(max_layer(o.rules)) +
                                " for these rules, got " + std::to_string(o.max_seeds));
  if (o.zstd_level < 1 || o.zstd_level > 19)
    throw std::invalid_argument("zstd level must be 1..19, got " + std::to_string(o.zstd_level));
  thread_count(o.threads);
  try {
    Ranker(o.rules.pits, o.max_seeds);
  } catch (const std::overflow_error& e) {
    throw std::invalid_argument(e.what());
  }
}

void BuildTotals::add(const LayerEvent& e) {
  boards += e.boards;
  file_bytes += e.file_bytes;
  if (e.reused) return;
  built_boards += e.boards;
  built_bytes += e.file_bytes;
  built_seconds += e.seconds;
  compute_seconds += e.compute_seconds;
}

uint64_t build_memory_estimate(const Ranker& ranker, int s, int threads) {
  uint64_t bytes = 0;
  for (int t = 0; t <= s; ++t) bytes += ranker.layer_size(t);
  return bytes + overhead_bytes(ranker, s, threads);
}

void build_database(const BuildOptions& o, BuildObserver& observer) {
  validate(o);
  const Ranker ranker(o.rules.pits, o.max_seeds);
  const MemoryPlan plan = plan_memory(o, ranker);
  const ThreadLimit threads(o.threads);
  std::filesystem::create_directories(o.dir);
  const DirectoryLock lock(o.dir);
  remove_temporary_files(o.dir);
  for (const auto& name : stray_layer_files(o.dir))
    observer.note("ignoring " + o.dir + "/" + name + ": not a layer file name kalah writes");
  if (plan.lean)
    observer.note(
        "lean mode: the layers do not fit the memory limit raw (" +
        std::to_string(build_memory_estimate(ranker, o.max_seeds, threads.threads()) >> 20) +
        " MiB); layers below s-1 are read from their files through a " +
        std::to_string(plan.cache_bytes >> 20) + " MiB cache of decoded blocks");

  // Valid layers are kept, and loaded where a layer to build needs them raw: every lower layer in
  // normal mode, only the one below in lean mode.
  const std::vector<bool> valid = valid_layers(o, observer);
  int top_to_build = 0;
  for (int s = 1; s <= o.max_seeds; ++s)
    if (!valid[s]) top_to_build = s;
  auto needed_raw = [&](int s) {
    return plan.lean ? s < o.max_seeds && !valid[s + 1] : s < top_to_build;
  };

  std::vector<HugeArray<uint8_t>> layers(o.max_seeds + 1);
  std::vector<const uint8_t*> lower(o.max_seeds + 1, nullptr);
  std::vector<std::unique_ptr<LayerFile>> files;  // layers 1.. on disk, for the lean cache
  for (int s = 1; s <= o.max_seeds; ++s) {
    LayerEvent ev;
    ev.seeds = s;
    ev.boards = ranker.layer_size(s);
    ev.memory = plan.lean ? lean_raw_bytes(ranker, s) +
                                overhead_bytes(ranker, s, threads.threads()) + plan.cache_bytes
                          : build_memory_estimate(ranker, s, threads.threads());
    ev.reused = valid[s];
    observer.layer_started(ev);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string path = layer_path(o.dir, o.rules, s);
    if (valid[s] && needed_raw(s)) {
      layers[s] = HugeArray<uint8_t>(ev.boards);
      LayerFile(path, o.rules, s).read_all(layers[s].data());
    } else if (!valid[s]) {
      layers[s] = HugeArray<uint8_t>(ev.boards);
      std::optional<BlockCache> cold;
      if (plan.lean) cold.emplace(files, plan.cache_bytes);
      const LayerWork work =
          compute_layer(o.rules, ranker, s, lower, cold ? &*cold : nullptr, layers[s].data(),
                        [&](uint64_t done) { observer.layer_progress(s, done, ev.boards); });
      ev.largest_piece = work.largest_piece;
      ev.critical_path = work.critical_path;
      ev.compute_seconds = since(t0);
      write_layer_file(o.dir, o.rules, s, layers[s].data(), ev.boards, o.zstd_level);
    }
    lower[s] = layers[s].data();
    if (plan.lean) files.push_back(std::make_unique<LayerFile>(path, o.rules, s));
    ev.file_bytes = std::filesystem::file_size(path);
    ev.seconds = since(t0);
    observer.layer_finished(ev);
    // Free what no layer above needs raw any more.
    if (!needed_raw(s)) {
      layers[s] = HugeArray<uint8_t>();
      lower[s] = nullptr;
    }
    if (plan.lean && s > 1) {  // layer s-1 is read through the cache from now on
      layers[s - 1] = HugeArray<uint8_t>();
      lower[s - 1] = nullptr;
    }
  }
}

}  // namespace kalah
