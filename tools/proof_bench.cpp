// proof_bench.cpp: how big the proofs of a full analysis are, against the smallest that a choice
// of moves near the root would give (issue 24; docs/design.md §7, "What a full analysis costs").
//
// For each move of the start position of Kalah(M,N), with its exact value v: the nodes alpha-beta
// spends proving "the move is worth at least v" in a fresh table (the costly half of a weak move's
// value), and the nodes of the same proof when, at the first LEVELS turns of the side that needs
// one good move, the move with the smallest proof is taken. Each candidate's proof runs in a fresh
// table and finding which candidates prove the bound is not counted: an oracle, a bound on what a
// search that looks for small proofs (proof-number search, df-pn) could save.
//
//   kalah-proof-bench DIR [PITS SEEDS CAPTURE LEVELS]   (default: 6 4 empty 1)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "db/database.h"
#include "solver/solver.h"

namespace {

using namespace kalah;

struct Prover {
  Rules rules;
  const Database& db;

  // Nodes of a null-window search (alpha, alpha + 1) of b in a fresh table; its result in *v.
  uint64_t search(const Board& b, int alpha, int* v) const {
    Solver s(rules, size_t{64} << 20, &db);
    *v = s.search(b, alpha, alpha + 1);
    return s.nodes();
  }
  bool small(const Board& b) const {
    return is_terminal(rules, b) || seeds(b) <= db.max_seeds() + Solver::kUntabledSeeds;
  }
  // The proof of "V(b) >= t": the cheapest move's at the first `levels` turns of b's mover.
  uint64_t at_least(const Board& b, int t, int levels) const {
    int v;
    if (levels == 0 || small(b)) return search(b, t - 1, &v);
    uint64_t best = ~uint64_t{0};
    for (int pit = 0; pit < rules.pits; ++pit) {
      if (b.pits[pit] == 0) continue;
      const MoveResult r = play(rules, b, pit);
      const Window w = child_window(r, t - 1, t);
      search(r.board, w.alpha, &v);  // does it prove the bound? (not counted)
      if (move_value(r, v) < t) continue;
      best = std::min(best, 1 + (r.extra_turn ? at_least(r.board, t - r.gain, levels - 1)
                                              : at_most(r.board, r.gain - t, levels - 1)));
    }
    return best;
  }
  // The proof of "V(b) <= t": every move's.
  uint64_t at_most(const Board& b, int t, int levels) const {
    int v;
    if (small(b)) return search(b, t, &v);
    uint64_t sum = 1;
    for (int pit = 0; pit < rules.pits; ++pit) {
      if (b.pits[pit] == 0) continue;
      const MoveResult r = play(rules, b, pit);
      sum += r.extra_turn ? at_most(r.board, t - r.gain, levels)
                          : at_least(r.board, r.gain - t, levels);
    }
    return sum;
  }
};

int run(int argc, char** argv) {
  if (argc != 2 && argc != 6) {
    std::fprintf(stderr, "usage: kalah-proof-bench DIR [PITS SEEDS CAPTURE LEVELS]\n");
    return 2;
  }
  const int pits = argc == 6 ? std::atoi(argv[2]) : 6;
  const int per_pit = argc == 6 ? std::atoi(argv[3]) : 4;
  const Capture capture = argc == 6 ? parse_capture(argv[4]) : Capture::kEmpty;
  const int levels = argc == 6 ? std::atoi(argv[5]) : 1;
  const Rules rules{pits, capture, End::kImmediate, Remainder::kOwner};
  const Database db(argv[1], rules, Database::search_cache_bytes());
  const Prover prover{rules, db};
  const Board start = start_board(pits, per_pit);
  Solver solver(rules, size_t{1} << 30, &db);
  std::printf("move  value  proof of 'at least the value': alpha-beta, cheapest moves at %d level%s\n",
              levels, levels == 1 ? "" : "s");
  uint64_t plain_total = 0, oracle_total = 0;
  for (int pit = 0; pit < pits; ++pit) {
    if (start.pits[pit] == 0) continue;
    const MoveResult r = play(rules, start, pit);
    const int v = move_value(r, solver.value(r.board));
    const Window w = child_window(r, v - 1, v);
    int check;
    const uint64_t plain = prover.search(r.board, w.alpha, &check);
    const uint64_t oracle = r.extra_turn ? prover.at_least(r.board, v - r.gain, levels)
                                         : prover.at_most(r.board, r.gain - v, levels);
    plain_total += plain;
    oracle_total += oracle;
    std::printf("%4d %+6d  %12llu %12llu  (%.1fx)\n", pit + 1, v,
                static_cast<unsigned long long>(plain), static_cast<unsigned long long>(oracle),
                static_cast<double>(plain) / oracle);
  }
  std::printf("all         %12llu %12llu  (%.1fx)\n", static_cast<unsigned long long>(plain_total),
              static_cast<unsigned long long>(oracle_total),
              static_cast<double>(plain_total) / oracle_total);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // a bad rule, a missing database
    std::fprintf(stderr, "kalah-proof-bench: %s\n", e.what());
    return 2;
  }
}
