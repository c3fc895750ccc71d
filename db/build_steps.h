// build_steps.h: the parts of a build that the single-machine builder (db/builder.cpp) and the
// build over several processes (db/mpi_build.cpp) share.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "db/builder.h"
#include "solver/huge_array.h"

namespace kalah {

uint64_t machine_memory();
// Beside the raw layers while building layer s: 32 MiB for buffers and code, and the row tables
// (db/row_moves.h) of the row pairs in flight, one per thread, the largest holding the rows of s
// seeds.
uint64_t overhead_bytes(const Ranker& ranker, int s, int threads);
// Removes the temporary files of interrupted builds (the directory must be locked).
void remove_temporary_files(const std::string& dir);
// Which layers are on disk and valid (checksums included). A damaged file of this format is
// rebuilt (a note says so); any other problem (another format or version, contradicting fields,
// a file that cannot be read) throws DatabaseError before anything is touched.
std::vector<bool> valid_layers(const BuildOptions& o, BuildObserver& observer);
double since(std::chrono::steady_clock::time_point t0);

// The layers a build holds raw (layers[t], lower[t] its data or null) while building layer by
// layer: what the layers to build need (needed_until[t]: the last of them whose window holds t).
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

// The event of layer s, before it is built or kept.
inline LayerEvent layer_event(const Ranker& ranker, int s, uint64_t memory, bool reused) {
  LayerEvent ev;
  ev.seeds = s;
  ev.boards = ranker.layer_size(s);
  ev.memory = memory;
  ev.reused = reused;
  return ev;
}

}  // namespace kalah
