// certify.cpp: the proof search behind a certificate (query/certify.h).
#include "query/certify.h"

#include <chrono>

#include "base/units.h"
#include "parallel/search_run.h"
#include "solver/proof.h"
#include "store/certificate.h"

namespace kalah {

Certified certify(const std::string& file, const Rules& rules, const Position& p, int margin,
                  const Database* db, const StopFlag* stop,
                  const std::function<void(uint64_t positions)>& progress) {
  const auto start = std::chrono::steady_clock::now();
  const int value = margin - (p.mover_store - p.opponent_store);
  ProofWriter proof(rules, db, kSearchTableBytes);
  proof.set_stop_flag(stop);
  if (progress) proof.set_progress(progress);
  proof.prove(p.board, value);
  Certified c;
  c.file = file;
  c.bytes = write_certificate(file, {rules, p, value, db, proof.positions()}, proof.moves());
  c.positions = proof.positions();
  c.moves = proof.moves().size();
  c.nodes = proof.search_nodes();
  c.seconds = seconds_since(start);
  return c;
}

JsonObject certificate_json(const Certified& c) {
  return JsonObject()
      .add("file", c.file)
      .add("bytes", c.bytes)
      .add("positions", c.positions)
      .add("moves", c.moves)
      .add("nodes", c.nodes)
      .add("seconds", c.seconds);
}

}  // namespace kalah
