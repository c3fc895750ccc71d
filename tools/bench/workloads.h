// workloads.h: the fixed, repeatable workloads of `kalah bench`, and their signatures.
//
// A signature changes only when results or file bytes change, never with the machine or the
// thread count: scripts/bench.sh compares it with the recorded one.
#pragma once

#include <cstdint>
#include <vector>

#include "db/database.h"
#include "retrograde/builder.h"

namespace kalah {

// Builds (or keeps) a database: what was built, in sum and layer by layer.
struct BuildBench {
  BuildTotals totals;
  std::vector<LayerEvent> layers;
};
BuildBench bench_build(const BuildOptions& options);

// Hash of every layer's body checksum: the bytes of the database in one number.
uint64_t database_signature(const Database& db);

struct ProbeBench {
  uint64_t probes = 0;
  double cold_seconds = 0, warm_seconds = 0;  // first pass over the boards, then again
  // Every block searched where it lies decoded into memory (Database::decode_in_memory), then a
  // third pass; 0 for a database with none.
  double decode_seconds = 0, memory_seconds = 0;
  uint64_t memory_bytes = 0;
};
// Probes `count` random boards (each layer weighted by its size, a fixed seed) twice, on the
// calling thread; then decodes the blocks searched where they lie into memory and probes them
// again.
ProbeBench bench_probes(const Database& db, uint64_t count);

struct SearchBench {
  int value = 0;
  uint64_t nodes = 0;
  double seconds = 0;
};
// Kalah(4,4), standard rules, by sequential search alone (256 MiB table).
SearchBench bench_search();

}  // namespace kalah
