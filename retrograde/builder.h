// builder.h: building a database directory layer by layer, resumably (docs/design.md §5).
//
// Layers 1..S are computed in increasing s (retrograde/layer_solver.h), each written to a temporary
// name, synced and renamed (db/layer_file.h): an interrupted build loses at most the layer in
// progress, and a rerun keeps every valid file and gives byte-identical files for any thread
// count. In normal mode all layers up to the one being built are held raw, one byte per board;
// lean mode holds as few as one (retrograde/memory_plan.h chooses).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "db/layer_file.h"
#include "db/rank.h"
#include "game/rules.h"
#include "retrograde/layer_solver.h"

namespace kalah {

struct BuildOptions {
  std::string dir;
  Rules rules;
  int max_seeds = 0;
  int threads = 0;            // 0: all cores
  uint64_t memory_limit = 0;  // bytes; 0: usable_memory() (base/machine.h)
  bool lean = false;          // lean mode even when the normal mode would fit
  LayerFormat format;         // what the layer files are written in
};

// Throws std::invalid_argument naming the option that is out of range (rules, max seeds for
// these rules, threads, zstd level, or layers too big to rank in 64 bits).
void validate(const BuildOptions& options);

struct LayerEvent {
  int seeds = 0;
  uint64_t boards = 0;
  uint64_t memory = 0;         // estimated bytes held while building this layer
  bool reused = false;         // an existing valid file was kept instead
  double seconds = 0;          // compute and write time
  double compute_seconds = 0;  // of which computing values
  uint64_t file_bytes = 0;
  // For a computed layer, how its work was divided (retrograde/layer_solver.h): the largest piece
  // and the critical path, in boards.
  uint64_t largest_piece = 0, critical_path = 0;
};

// What a build reports while it runs; called from the building thread, except layer_progress,
// which worker threads call.
struct BuildObserver {
  virtual ~BuildObserver() = default;
  virtual void layer_started(const LayerEvent&) {}
  virtual void layer_progress(int /*s*/, uint64_t /*done*/, uint64_t /*total*/) {}
  virtual void layer_finished(const LayerEvent&) {}
  virtual void note(const std::string&) {}
};

// A build's layers summed up: every layer, and those computed (not kept) apart.
struct BuildTotals {
  uint64_t boards = 0, file_bytes = 0;
  uint64_t built_boards = 0, built_bytes = 0;
  double built_seconds = 0, compute_seconds = 0;

  void add(const LayerEvent& e);
};

// A build that cannot fit the memory limit, found before any work.
struct MemoryLimitError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Builds or resumes DIR for layers 1..max_seeds: valid layer files are kept, missing or invalid
// ones computed and written atomically. Throws std::invalid_argument (bad options, see
// validate), MemoryLimitError (before any work) or FileError.
void build_database(const BuildOptions& options, BuildObserver& observer);

}  // namespace kalah
