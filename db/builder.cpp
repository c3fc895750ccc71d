// builder.cpp: the resumable build of a database directory.
#include "db/builder.h"

#include <malloc.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <vector>

#include "db/build_steps.h"
#include "db/dir_lock.h"
#include "db/lean_children.h"
#include "db/file_names.h"
#include "solver/huge_array.h"
#include "solver/threads.h"

namespace kalah {

uint64_t machine_memory() {
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
}

uint64_t overhead_bytes(const Ranker& ranker, int s, int threads) {
  const uint64_t rows = ranker.row_count(s) + 1;
  return (uint64_t{32} << 20) + static_cast<uint64_t>(threads) * rows * (33 * ranker.pits() + 16);
}

namespace {

constexpr uint64_t kMinChunkBytes = uint64_t{1} << 20;  // chunks of 10^4 boards: slow, but correct
// Lean mode holds another layer raw only if the chunks' lists keep at least this much.
constexpr uint64_t kChunkFloor = uint64_t{256} << 20;

}  // namespace

void remove_temporary_files(const std::string& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("kalah-", 0) == 0 && name.find(".kdb.tmp") != std::string::npos)
      std::filesystem::remove(entry.path());
  }
}

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

// Normal mode if every layer fits raw; else lean mode, the rest of the limit for the chunks.
MemoryPlan plan_memory(const BuildOptions& o, const Ranker& ranker) {
  const uint64_t limit = o.memory_limit ? o.memory_limit : machine_memory();
  const int threads = thread_count(o.threads);
  MemoryPlan plan;
  plan.window_start.assign(o.max_seeds + 1, 1);
  plan.chunk_bytes.assign(o.max_seeds + 1, 0);
  plan.layer_bytes.assign(o.max_seeds + 1, 0);
  for (int s = 1; s <= o.max_seeds; ++s)
    plan.layer_bytes[s] = build_memory_estimate(ranker, s, threads);
  plan.peak = build_memory_estimate(ranker, o.max_seeds, threads);
  if (plan.peak <= limit && !o.lean) return plan;
  // Lean: layer s raw (every layer while they fit, unless --lean), then lower ones while they
  // leave the chunks kChunkFloor; the window's lower edge never moves down, so a layer leaves
  // memory once and for all.
  plan.lean = true;
  plan.peak = 0;
  auto lean_minimum = [&](int s) {  // layer s, overhead, the smallest lists
    return ranker.layer_size(s) + overhead_bytes(ranker, s, threads) + kMinChunkBytes;
  };
  for (int s = 1; s <= o.max_seeds; ++s) {
    if (lean_minimum(s) > limit) {
      int fits = 0;
      while (fits < o.max_seeds && lean_minimum(fits + 1) <= limit) ++fits;
      throw MemoryLimitError(
          "building up to " + std::to_string(o.max_seeds) + " seeds needs " +
          std::to_string(build_memory_estimate(ranker, o.max_seeds, threads) >> 20) +
          " MiB, and layer " + std::to_string(s) + " needs " +
          std::to_string(lean_minimum(s) >> 20) + " MiB even in lean mode; the memory limit is " +
          std::to_string(limit >> 20) + " MiB (up to " + std::to_string(fits) +
          " seeds would fit)");
    }
    const uint64_t overhead = overhead_bytes(ranker, s, threads);
    int start = s;
    uint64_t raw = ranker.layer_size(s);
    const uint64_t all_raw = build_memory_estimate(ranker, s, threads);
    if (!o.lean && plan.window_start[s - 1] == 1 && all_raw <= limit) {  // as normal mode
      start = 1;
      raw = all_raw - overhead;
    }
    while (start > 1 && start > plan.window_start[s - 1] &&
           raw + ranker.layer_size(start - 1) + overhead + kChunkFloor <= limit)
      raw += ranker.layer_size(--start);
    plan.window_start[s] = start;
    // A quarter of what is left is kept from the chunks for what the estimate does not see
    // (the heap's slack, threads' buffers and stacks, zstd's contexts): m = 6 up to 28 seeds in
    // 2.5 GiB peaked 2 % over the limit (at layer 27) with an eighth kept.
    plan.chunk_bytes[s] = start > 1 ? (limit - raw - overhead) / 4 * 3 : 0;
    plan.layer_bytes[s] = raw + overhead + plan.chunk_bytes[s] / 3 * 4;
    plan.peak = std::max(plan.peak, plan.layer_bytes[s]);
  }
  return plan;
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
        " MiB); the layer being built is held raw (and those below it while they fit), the "
        "others are read from their files in chunks, each block decoded once a chunk; "
        "estimated peak " +
        std::to_string(plan.peak >> 20) + " MiB");

  // Valid layers are kept, and loaded where a layer to build needs them raw. needed_until[t]:
  // the last layer to build whose raw window holds layer t (0: none).
  const std::vector<bool> valid = valid_layers(o, observer);
  RawLayers raw(o.max_seeds);
  for (int s = 1; s <= o.max_seeds; ++s)
    if (!valid[s])
      for (int t = plan.window_start[s]; t < s; ++t) raw.needed_until[t] = s;

  std::vector<std::unique_ptr<LayerFile>> files;  // layers 1.. on disk, for lean mode
  for (int s = 1; s <= o.max_seeds; ++s) {
    LayerEvent ev = layer_event(ranker, s, plan.layer_bytes[s], valid[s]);
    observer.layer_started(ev);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string path = layer_path(o.dir, o.rules, s);
    if (valid[s] && raw.needed_until[s] > s) {
      raw.layers[s] = HugeArray<uint8_t>(ev.boards);
      LayerFile(path, o.rules, s).read_all(raw.layers[s].data());
    } else if (!valid[s]) {
      raw.layers[s] = HugeArray<uint8_t>(ev.boards);
      LeanChildren lean(files, plan.chunk_bytes[s]);
      const LayerWork work =
          compute_layer(o.rules, ranker, s, raw.lower, plan.window_start[s] > 1 ? &lean : nullptr,
                        raw.layers[s].data(),
                        [&](uint64_t done) { observer.layer_progress(s, done, ev.boards); });
      ev.largest_piece = work.largest_piece;
      ev.critical_path = work.critical_path;
      ev.compute_seconds = since(t0);
      write_layer_file(o.dir, o.rules, s, raw.layers[s].data(), ev.boards, o.zstd_level);
      // Lean mode's lists of children are freed by now, but glibc keeps freed heap pages
      // resident until trimmed, and the next layer's lists would come on top of them.
      if (plan.lean) malloc_trim(0);
    }
    raw.lower[s] = raw.layers[s].data();
    if (plan.lean) files.push_back(std::make_unique<LayerFile>(path, o.rules, s));
    ev.file_bytes = std::filesystem::file_size(path);
    ev.seconds = since(t0);
    observer.layer_finished(ev);
    raw.release_after(s);
  }
}

}  // namespace kalah
