// solve_files.cpp: certificates and checkpoints of `kalah solve` (solve_files.h).
#include "tools/solve_files.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "db/certificate.h"
#include "db/checkpoint.h"
#include "solver/proof.h"
#include "solver/units.h"
#include "tools/cli.h"

namespace kalah {

Certified certify(const std::string& file, const Rules& rules, const Position& p, int margin,
                  const Database* db, const std::atomic<bool>* stop,
                  const std::function<void(uint64_t positions)>& progress) {
  const auto start = std::chrono::steady_clock::now();
  const int value = margin - (p.mover_store - p.opponent_store);
  ProofWriter proof(rules, db, kSearchTableBytes);
  proof.set_stop_flag(stop);
  proof.set_progress(progress);
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

void print_certificate(std::ostream& out, const Certified& c, const std::string& db_dir) {
  out << "certificate: " << c.file << ", " << human_bytes(c.bytes) << ", " << c.positions
      << " positions, " << c.seconds << " s; check it with: kalah-check-certificate " << c.file
      << (db_dir.empty() ? "" : " --db " + db_dir) << "\n";
}

namespace {

// "1573253120 nodes searched, value in [+10, +56], 2 of 7 moves exact, 2734362 table entries"
// A full analysis also gets an estimate of what remains: the moves not yet exact at the average
// cost of those that are (the value search, which finds the first, included). A value search
// gets none: it stops at an unknown test.
std::string describe_state(const SearchState& s, const Board& b, int stores, bool full) {
  // The root's bounds: the best move's proven lower bound, the highest upper bound.
  int lower = -seeds(b), upper = -seeds(b), exact = 0;
  for (const MoveBounds& mv : s.moves) {
    lower = std::max(lower, mv.lower);
    upper = std::max(upper, mv.upper);
    exact += mv.lower == mv.upper;
  }
  std::string text = std::to_string(s.nodes) + " nodes searched, value in [" +
                     signed_number(stores + lower) + ", " + signed_number(stores + upper) + "], " +
                     std::to_string(exact) + " of " + std::to_string(s.moves.size()) +
                     " moves exact, " + std::to_string(s.entries.size()) + " table entries";
  const int left = static_cast<int>(s.moves.size()) - exact;
  if (full && exact > 0 && left > 0) {
    char estimate[96];
    std::snprintf(estimate, sizeof estimate, "; about %.2g more nodes for the %d moves left",
                  static_cast<double>(s.nodes) / exact * left, left);
    text += estimate;
  }
  return text;
}

}  // namespace

std::unique_ptr<Checkpoints> open_checkpoints(const std::string& dir, double seconds,
                                              const Rules& rules, const Position& p, bool full) {
  make_checkpoint_dir(dir);
  auto c = std::make_unique<Checkpoints>();
  const Board& b = p.board;
  std::string problem;
  c->resumed = read_checkpoint(dir, rules, b, problem);
  if (!problem.empty()) std::cerr << "kalah: ignoring " << problem << "; starting afresh\n";
  if (c->resumed)
    std::cerr << "resuming from " << checkpoint_path(dir, rules, b) << ": "
              << describe_state(*c->resumed, b, p.mover_store - p.opponent_store, full)
              << std::endl;
  c->checkpointing.seconds = seconds;
  c->checkpointing.resume = c->resumed ? &*c->resumed : nullptr;
  // Each save says what is proven so far: a search of hours between its answers shows progress.
  const int stores = p.mover_store - p.opponent_store;
  c->checkpointing.save = [dir, rules, b, stores, full](const SearchState& s) {
    write_checkpoint(dir, rules, b, s);
    std::cerr << "  checkpoint: " << describe_state(s, b, stores, full) << std::endl;
  };
  return c;
}

}  // namespace kalah
