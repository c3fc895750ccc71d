// verify.h: checking a database three independent ways (docs/design.md §8).
//
//   1. the checksum of every file (header, blocks, index), and every value decoded and in range;
//   2. values recomputed from their children, one move deeper through the database, on random
//      boards of each layer or on all of them;
//   3. values against an independent oracle (`kalah verify` gives the exact search solver) on a
//      few random boards of the small layers.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/file_names.h"

namespace kalah {

struct VerifyOptions {
  uint64_t sample = 10000;  // boards per layer recomputed from their children
  bool full = false;        // recompute every board instead
  uint64_t solver_sample = 20;
  int solver_max_seeds = 16;  // compare with the solver only in layers up to this
  // Way 3's oracle, V of a board found without the database (none: way 3 is skipped). Given by
  // the caller, so that the prober does not link the search. Called from one thread.
  std::function<int(const Board&)> exact;
};

// Way 1 for a variant's files: the failures, each naming its file (empty: all good).
std::vector<std::string> check_files(const std::string& dir, const VariantFiles& variant);

struct LayerCheck {
  int seeds = 0;
  uint64_t recomputed = 0;            // boards recomputed from their children
  uint64_t solved = 0;                // boards compared with the solver
  uint64_t wrong = 0;                 // boards whose stored value differs
  std::vector<std::string> problems;  // the first few wrong boards, each naming its file
};

// Checks layer s of an open database (ways 2 and 3); recomputation runs in parallel.
LayerCheck check_layer(const Database& db, const std::string& dir, int s,
                       const VerifyOptions& options);

}  // namespace kalah
