// solve_files.h: what `kalah solve` keeps on disk beside its answer: a certificate of the value
// (--certificate, db/certificate.h) and the search's checkpoints (--checkpoint, db/checkpoint.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "api/json.h"
#include "db/database.h"
#include "solver/parallel_search.h"

namespace kalah {

struct Certified {
  std::string file;
  uint64_t bytes = 0, positions = 0, moves = 0, nodes = 0;
  double seconds = 0;
};

// Proves that p's final margin is `margin` (solver/proof.h) and writes the certificate to `file`.
// `progress` is told the positions proven now and then. Throws SearchInterrupted when *stop is
// raised.
Certified certify(const std::string& file, const Rules& rules, const Position& p, int margin,
                  const Database* db, const std::atomic<bool>* stop,
                  const std::function<void(uint64_t positions)>& progress);
// The answer's "certificate" member (docs/json.md), and its line of text.
JsonObject certificate_json(const Certified& c);
void print_certificate(std::ostream& out, const Certified& c, const std::string& db_dir);

// --checkpoint DIR for p: the state saved there, if any (what it holds is said on stderr, and a
// file that cannot be trusted is ignored with a warning), and the saving to it. `full`: for a
// full analysis, whose progress lines estimate what remains.
struct Checkpoints {
  std::optional<SearchState> resumed;
  Checkpointing checkpointing;
};
std::unique_ptr<Checkpoints> open_checkpoints(const std::string& dir, double seconds,
                                              const Rules& rules, const Position& p, bool full);

}  // namespace kalah
