// workloads.cpp: build, probe and search workloads.
#include "tools/bench/workloads.h"

#include <chrono>
#include <random>
#include <stdexcept>
#include <vector>

#include "base/checksum.h"
#include "base/units.h"
#include "parallel/parallel_search.h"
#include "solver/solver.h"

namespace kalah {
namespace {

struct Collect : BuildObserver {
  BuildBench bench;
  void layer_finished(const LayerEvent& e) override {
    bench.totals.add(e);
    bench.layers.push_back(e);
  }
};

}  // namespace

BuildBench bench_build(const BuildOptions& options) {
  Collect c;
  build_database(options, c);
  return c.bench;
}

uint64_t database_signature(const Database& db) {
  Checksum signature;
  for (int s = 1; s <= db.max_seeds(); ++s) {
    const uint64_t c = db.layer(s).header().body_checksum;
    signature.update(&c, sizeof c);
  }
  return signature.digest();
}

ProbeBench bench_probes(const Database& db, uint64_t count) {
  std::mt19937_64 rng(2026);
  std::vector<Board> boards(count);
  std::vector<double> weights;
  for (int s = 0; s <= db.max_seeds(); ++s)
    weights.push_back(s ? static_cast<double>(db.ranker().layer_size(s)) : 0.0);
  std::discrete_distribution<int> layer_of(weights.begin(), weights.end());
  for (auto& board : boards) {
    const int s = layer_of(rng);
    board = db.ranker().unrank(
        s, std::uniform_int_distribution<uint64_t>(0, db.ranker().layer_size(s) - 1)(rng));
  }
  ProbeBench out;
  out.probes = count;
  int64_t sum = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (const auto& board : boards) sum += *db.probe(board);
  out.cold_seconds = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  for (const auto& board : boards) sum -= *db.probe(board);
  out.warm_seconds = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  db.decode_in_memory();
  out.decode_seconds = seconds_since(t0);
  out.memory_bytes = db.decoded_in_memory();
  if (out.memory_bytes) {
    t0 = std::chrono::steady_clock::now();
    for (const auto& board : boards) sum += *db.probe(board);
    out.memory_seconds = seconds_since(t0);
    for (const auto& board : boards) sum -= *db.probe(board);
  }
  if (sum != 0) throw std::logic_error("probes disagree between passes");
  return out;
}

SearchBench bench_search() {
  const Rules rules{4, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  Solver solver(rules, kSearchTableBytes);
  const auto t0 = std::chrono::steady_clock::now();
  SearchBench out;
  out.value = solver.value(start_board(4, 4));
  out.seconds = seconds_since(t0);
  out.nodes = solver.nodes();
  return out;
}

}  // namespace kalah
