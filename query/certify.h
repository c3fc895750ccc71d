// certify.h: a proof of a position's value, searched for and written as a certificate
// (store/certificate.h's format; docs/design.md §8): the proof search beside the other searches
// of the query layer.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "base/json.h"
#include "base/stop.h"
#include "db/database.h"
#include "game/rules.h"

namespace kalah {

// A certificate written, and what it took.
struct Certified {
  std::string file;
  uint64_t bytes = 0, positions = 0, moves = 0, nodes = 0;
  double seconds = 0;
};
// {"file", "bytes", "positions", "moves", "nodes", "seconds"}: a certificate in every answer's
// JSON (solve's, and each of fair's).
JsonObject certificate_json(const Certified& c);

// Proves that p's final margin is `margin` (solver/proof.h, on one thread) and writes the
// certificate to `file`. `progress` is told the positions proven now and then. Throws
// SearchInterrupted when *stop is raised, std::logic_error when `margin` is not p's value.
Certified certify(const std::string& file, const Rules& rules, const Position& p, int margin,
                  const Database* db, const StopFlag* stop,
                  const std::function<void(uint64_t positions)>& progress = {});

}  // namespace kalah
