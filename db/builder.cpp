// builder.cpp: the resumable build of a database directory.
#include "db/builder.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <vector>

#include "db/dir_lock.h"
#include "db/file_names.h"
#include "solver/huge_array.h"
#include "solver/threads.h"

namespace kalah {
namespace {

uint64_t machine_memory() {
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
}

void check_memory(const BuildOptions& o, const Ranker& ranker) {
  const uint64_t limit = o.memory_limit ? o.memory_limit : machine_memory();
  const uint64_t peak = build_memory_estimate(ranker, o.max_seeds);
  if (peak <= limit) return;
  int fits = 0;
  while (fits < o.max_seeds && build_memory_estimate(ranker, fits + 1) <= limit) ++fits;
  throw MemoryLimitError("building up to " + std::to_string(o.max_seeds) + " seeds needs " +
                         std::to_string(peak >> 20) + " MiB, the memory limit is " +
                         std::to_string(limit >> 20) + " MiB (up to " + std::to_string(fits) +
                         " seeds would fit)");
}

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

uint64_t build_memory_estimate(const Ranker& ranker, int s) {
  uint64_t bytes = 0;
  for (int t = 0; t <= s; ++t) bytes += ranker.layer_size(t);
  return bytes + (uint64_t{64} << 20);
}

void build_database(const BuildOptions& o, BuildObserver& observer) {
  validate(o);
  const Ranker ranker(o.rules.pits, o.max_seeds);
  check_memory(o, ranker);
  std::filesystem::create_directories(o.dir);
  const DirectoryLock lock(o.dir);
  remove_temporary_files(o.dir);
  for (const auto& name : stray_layer_files(o.dir))
    observer.note("ignoring " + o.dir + "/" + name + ": not a layer file name kalah writes");
  const ThreadLimit threads(o.threads);

  // Valid layers are kept; those below the top layer to build are loaded for it.
  const std::vector<bool> valid = valid_layers(o, observer);
  int top_to_build = 0;
  for (int s = 1; s <= o.max_seeds; ++s)
    if (!valid[s]) top_to_build = s;

  std::vector<HugeArray<uint8_t>> layers(o.max_seeds + 1);
  std::vector<const uint8_t*> lower(o.max_seeds + 1, nullptr);
  for (int s = 1; s <= o.max_seeds; ++s) {
    LayerEvent ev;
    ev.seeds = s;
    ev.boards = ranker.layer_size(s);
    ev.memory = build_memory_estimate(ranker, s);
    ev.reused = valid[s];
    observer.layer_started(ev);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string path = layer_path(o.dir, o.rules, s);
    const bool needed_later = s < top_to_build;
    if (valid[s] && needed_later) {
      layers[s] = HugeArray<uint8_t>(ev.boards);
      LayerFile(path, o.rules, s).read_all(layers[s].data());
    } else if (!valid[s]) {
      layers[s] = HugeArray<uint8_t>(ev.boards);
      const LayerWork work =
          compute_layer(o.rules, ranker, s, lower, layers[s].data(),
                        [&](uint64_t done) { observer.layer_progress(s, done, ev.boards); });
      ev.largest_piece = work.largest_piece;
      ev.critical_path = work.critical_path;
      ev.compute_seconds = since(t0);
      write_layer_file(o.dir, o.rules, s, layers[s].data(), ev.boards, o.zstd_level);
    }
    lower[s] = layers[s].data();
    ev.file_bytes = std::filesystem::file_size(path);
    ev.seconds = since(t0);
    observer.layer_finished(ev);
    if (!needed_later) {  // nothing above needs it in memory any more
      layers[s] = HugeArray<uint8_t>();
      lower[s] = nullptr;
    }
  }
}

}  // namespace kalah
