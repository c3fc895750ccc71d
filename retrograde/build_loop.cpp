// build_loop.cpp: opening a build's directory and the layer loop.
#include "retrograde/build_loop.h"

#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "base/huge_array.h"
#include "base/units.h"
#include "db/decoded_layer.h"
#include "db/file_names.h"

namespace kalah {
namespace {

void remove_temporary_files(const std::string& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("kalah-", 0) == 0 && name.find(".kdb.tmp") != std::string::npos)
      std::filesystem::remove(entry.path());
  }
}

// Rewrites a valid layer file in another format, a block at a time (byte-identical to a build in
// that format: the values are the same, and the blocks are coded from them alone).
void convert(const LayerFile& from, const BuildOptions& o, int s) {
  write_layer_file(
      o.dir, o.rules, s, from.header().boards,
      [&](uint64_t first, uint64_t count, std::vector<std::string>& out) {
        tbb::parallel_for(uint64_t{0}, count, [&](uint64_t i) {
          thread_local std::vector<uint8_t> values;
          values.resize(from.block_boards(first + i));
          from.read_block(first + i, values.data());
          out[i] = layer_block(o.rules, s, first + i, values.data(), values.size(), o.format);
        });
      },
      o.format.version);
}

// A decoded copy is the cache of a layer not searched in place (format 1, db/decoded_layer.h):
// once the layer is in another format, or was just rewritten, its copy is only disk.
void remove_stale_copy(const BuildOptions& o, int s, uint32_t version, BuildObserver& observer) {
  if (!layer_codec(o.format.version).in_place && o.format.version == version) return;
  namespace fs = std::filesystem;
  const std::string copy = DecodedLayer::path(o.dir, o.rules, s);
  std::error_code ec;
  // Only a file of the directory's own decoded/: a link is never followed (as copies are not).
  if (!fs::is_directory(fs::symlink_status(o.dir + "/decoded", ec)) ||
      !fs::is_regular_file(fs::symlink_status(copy, ec)))
    return;
  const uintmax_t bytes = fs::file_size(copy, ec);
  if (ec || !fs::remove(copy, ec) || ec) return;
  observer.note("layer " + std::to_string(s) + ": its decoded copy of format 1 removed (" +
                human_bytes(bytes) + ")");
}

std::vector<bool> valid_layers(const BuildOptions& o, BuildObserver& observer) {
  std::vector<bool> valid(o.max_seeds + 1, false);
  for (int s = 1; s <= o.max_seeds; ++s) {
    const std::string path = layer_path(o.dir, o.rules, s);
    std::error_code ec;
    const auto status = std::filesystem::symlink_status(path, ec);
    if (ec && ec != std::errc::no_such_file_or_directory)
      throw FileError(path + ": cannot read: " + ec.message(), FileError::Problem::kUnreadable);
    if (!std::filesystem::exists(status)) continue;
    std::unique_ptr<const LayerFile> file;
    try {
      file = std::make_unique<const LayerFile>(path, o.rules, s);
      file->check_body();
      valid[s] = true;
    } catch (const FileError& e) {
      if (e.problem != FileError::Problem::kDamaged)
        throw FileError(std::string(e.what()) +
                            "; the build stops and leaves it as it is (it rebuilds only its "
                            "own damaged files: move this one away to rebuild the layer)",
                        e.problem);
      observer.note(std::string(e.what()) + "; rebuilding it");
      continue;
    }
    const uint32_t version = file->header().version;
    if (version != o.format.version) {
      try {
        convert(*file, o, s);
      } catch (const FileError& e) {  // the layer is sound: writing failed (disk full, read-only)
        throw FileError(std::string(e.what()) + "; layer " + std::to_string(s) +
                            " could not be rewritten in format " +
                            std::to_string(o.format.version) + " and is left as it was",
                        e.problem);
      }
      observer.note("layer " + std::to_string(s) + ": format " + std::to_string(version) +
                    " rewritten in format " + std::to_string(o.format.version));
    }
    remove_stale_copy(o, s, version, observer);
  }
  return valid;
}

// The directory exists before its lock file can be made.
const std::string& created(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw FileError(dir + ": cannot create the database directory: " + ec.message(),
                    FileError::Problem::kUnreadable);
  return dir;
}

// The layers held raw: layers[t], lower[t] its data or null, needed_until[t] the last layer to
// build whose window holds t.
struct RawLayers {
  std::vector<HugeArray<uint8_t>> layers;
  std::vector<const uint8_t*> lower;
  std::vector<int> needed_until;
  explicit RawLayers(int max_seeds)
      : layers(max_seeds + 1), lower(max_seeds + 1, nullptr), needed_until(max_seeds + 1, 0) {}
  // Frees what no layer above s needs raw any more.
  void release_after(int s) {
    for (int t = 1; t <= s; ++t)
      if (lower[t] && needed_until[t] <= s) {
        layers[t] = HugeArray<uint8_t>();
        lower[t] = nullptr;
      }
  }
};

}  // namespace

BuildDirectory::BuildDirectory(const BuildOptions& o, BuildObserver& observer) {
  if (::access(created(o.dir).c_str(), W_OK) != 0) {
    const int error = errno;
    valid_ = valid_layers(o, observer);
    if (std::count(valid_.begin() + 1, valid_.end(), true) == o.max_seeds) {
      observer.note(o.dir + " cannot be written (" + std::strerror(error) +
                    "), and every layer is there and valid: nothing to build");
      return;
    }
    throw FileError(o.dir + ": cannot write there (" + std::strerror(error) +
                    "), and layers are missing or damaged: give --db a directory you can "
                    "write, or build there as its owner");
  }
  lock_.emplace(o.dir);
  remove_temporary_files(o.dir);
  for (const auto& name : stray_layer_files(o.dir))
    observer.note("ignoring " + o.dir + "/" + name + ": not a layer file name kalah writes");
  valid_ = valid_layers(o, observer);
}

void run_layers(const BuildOptions& o, const Ranker& ranker, const std::vector<bool>& valid,
                const std::vector<int>& window_start, const std::vector<uint64_t>& layer_bytes,
                LayerSteps& steps, BuildObserver& observer) {
  RawLayers raw(o.max_seeds);
  for (int s = 1; s <= o.max_seeds; ++s)
    if (!valid[s])
      for (int t = window_start[s]; t < s; ++t) raw.needed_until[t] = s;
  for (int s = 1; s <= o.max_seeds; ++s) {
    LayerEvent ev;
    ev.seeds = s;
    ev.boards = ranker.layer_size(s);
    ev.memory = layer_bytes[s];
    ev.reused = valid[s];
    observer.layer_started(ev);
    const auto t0 = std::chrono::steady_clock::now();
    if (valid[s] && raw.needed_until[s] > s) {
      raw.layers[s] = HugeArray<uint8_t>(ev.boards);
      steps.load(s, raw.layers[s].data());
    } else if (!valid[s]) {
      raw.layers[s] = HugeArray<uint8_t>(ev.boards);
      steps.compute(s, raw.lower, raw.layers[s].data(), ev);
      ev.compute_seconds = seconds_since(t0);
      steps.write(s, raw.layers[s].data(), ev);
    }
    raw.lower[s] = raw.layers[s].data();
    if (steps.writes_files())
      ev.file_bytes = std::filesystem::file_size(layer_path(o.dir, o.rules, s));
    ev.seconds = seconds_since(t0);
    observer.layer_finished(ev);
    steps.finished(s);
    raw.release_after(s);
  }
}

}  // namespace kalah
