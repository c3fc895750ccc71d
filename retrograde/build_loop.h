// build_loop.h: what every build of a directory does around its layers, shared by the build on one
// machine (retrograde/builder.cpp) and the build over several processes (mpi/build.cpp): opening
// the directory, and the loop that keeps, loads or computes each layer (docs/design.md §5).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "base/dir_lock.h"
#include "retrograde/builder.h"

namespace kalah {

// The directory a build writes, locked for the build's life. Opening it removes the temporary
// files of interrupted builds, notes layer-like names kalah does not write, and finds which layers
// are on disk and valid (checksums included). A damaged file of this format is rebuilt (a note
// says so); any other problem (another format or version, contradicting fields, a file that
// cannot be read) throws FileError before anything is touched. A directory this process
// cannot write is fine when every layer is there and valid (nothing to write, no lock taken).
class BuildDirectory {
 public:
  BuildDirectory(const BuildOptions& o, BuildObserver& observer);
  // [s]: layer s is valid and kept.
  const std::vector<bool>& valid() const { return valid_; }

 private:
  std::optional<DirectoryLock> lock_;
  std::vector<bool> valid_;
};

// What a build does with one layer; run_layers calls these from the thread that called it.
class LayerSteps {
 public:
  virtual ~LayerSteps() = default;
  // Reads valid layer s into `out`: a layer to build needs it raw.
  virtual void load(int s, uint8_t* out) = 0;
  // Computes layer s into `out` (the lower layers in `lower`, null where not held raw); sets
  // ev's division of work.
  virtual void compute(int s, const std::vector<const uint8_t*>& lower, uint8_t* out,
                       LayerEvent& ev) = 0;
  // Writes computed layer s from `values`.
  virtual void write(int s, uint8_t* values, LayerEvent& ev) = 0;
  // Whether this process writes the files (and so can give their sizes).
  virtual bool writes_files() const { return true; }
  // After layer s's event is reported.
  virtual void finished(int /*s*/) {}
};

// Layers 1..o.max_seeds in order: a valid layer is kept, and loaded when a layer to build holds
// it raw (window_start[t] <= s < t), an invalid one computed and written; raw layers are freed
// once no layer above needs them. layer_bytes[s] is the memory estimate its event reports.
void run_layers(const BuildOptions& o, const Ranker& ranker, const std::vector<bool>& valid,
                const std::vector<int>& window_start, const std::vector<uint64_t>& layer_bytes,
                LayerSteps& steps, BuildObserver& observer);

}  // namespace kalah
