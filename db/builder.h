// builder.h: building a database layer by layer (retrograde analysis by seeds on the board).
//
// Layer s holds V of every board with s seeds (rank order, solver/rank.h). A board's value is the
// best over its moves of gain ± V(child); children lie in lower layers (seeds reached a store) or
// in layer s itself (a sowing that stays in the mover's row). Those same-layer moves never form a
// cycle (design §4), so one pass suffices if boards come in the right order:
//
// A same-layer move from (x, y) (mover row x, opponent row y) leads to (y, x') with x' of higher Φ,
// so the boards whose rows hold k and s-k seeds form a closed "row pair": independent of the other
// pairs (parallel tasks) and computable cell by cell, cells (x, y) in Φ-descending order of x and
// of y (both boards (x, y) and (y, x) per cell). Cells of two groups of equal Φ are independent:
// they are taken in tiles of a few rows by a few rows for cache reuse, and their children are
// located and prefetched a batch at a time before being read (the lookups miss the caches).
// Every board is computed once, by one thread: the files do not depend on the thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "db/big_array.h"
#include "db/layer_file.h"
#include "solver/rank.h"
#include "solver/rules.h"

namespace kalah {

// Computes one layer from the complete lower layers, with the calling thread's oneTBB arena.
// lower[t] holds layer t for t < s (lower[0] may be empty: the empty board is terminal).
// `progress(done)` is called from worker threads with boards finished so far (may be empty).
void compute_layer(const Rules& rules, const Ranker& ranker, int s,
                   const std::vector<const uint8_t*>& lower, uint8_t* out,
                   const std::function<void(uint64_t)>& progress = {});

struct BuildOptions {
  std::string dir;
  Rules rules;
  int max_seeds = 0;
  int threads = 0;            // 0: all cores
  uint64_t memory_limit = 0;  // bytes; 0: the machine's physical memory
  int zstd_level = kDefaultZstdLevel;
};

struct LayerEvent {
  int seeds = 0;
  uint64_t boards = 0;
  uint64_t memory = 0;         // estimated bytes held while building this layer
  bool reused = false;         // an existing valid file was loaded instead
  double seconds = 0;          // compute and write time
  double compute_seconds = 0;  // of which computing values
  uint64_t file_bytes = 0;
};

struct BuildObserver {
  virtual ~BuildObserver() = default;
  virtual void layer_started(const LayerEvent&) {}
  virtual void layer_progress(int /*s*/, uint64_t /*done*/, uint64_t /*total*/) {}
  virtual void layer_finished(const LayerEvent&) {}
  virtual void note(const std::string&) {}
};

// Builds or resumes DIR for layers 1..max_seeds: valid layer files are loaded, missing or invalid
// ones computed and written atomically. Throws DatabaseError, std::invalid_argument (bad options)
// or MemoryLimitError.
void build_database(const BuildOptions& options, BuildObserver& observer);

struct MemoryLimitError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Bytes held while building layer s: layers 0..s raw (one byte per board) and a fixed 64 MiB for
// the writer's buffers, tables and code.
uint64_t build_memory_estimate(const Ranker& ranker, int s);

}  // namespace kalah
