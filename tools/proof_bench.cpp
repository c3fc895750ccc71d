// proof_bench.cpp: how big the proofs of a full analysis are, against the smallest that a choice
// of moves near the root would give (issue 24; docs/design.md §7, on the full analysis).
//
// For each move of the start position of Kalah(M,N), with its exact value v: the nodes alpha-beta
// spends proving "the move is worth at least v" in a fresh table (the costly half of a weak move's
// value), and the nodes of the same proof when, at the first LEVELS turns of the side that needs
// one good move, the move with the smallest proof is taken. Each candidate's proof runs in a fresh
// table and finding which candidates prove the bound is not counted: an oracle, a bound on what a
// search that looks for small proofs (proof-number search, df-pn) could save.
//
// With a sixth argument ABOVE, the same proofs by a first df-pn: proof and disproof numbers over
// the boards of more than ABOVE seeds (an unexpanded board counts its mover's moves, as the
// proofs that side's every move needs; thresholds widened by a quarter against thrashing),
// alpha-beta below, in one table. Its cost is the alpha-beta nodes plus the boards expanded.
//
//   kalah-proof-bench DIR [PITS SEEDS CAPTURE LEVELS [ABOVE]]   (default: 6 4 empty 1)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <unordered_map>

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

// Depth-first proof-number search of "V(b) >= t" (an OR node: one move suffices) or "V(b) <= t"
// (AND: every move), down to boards of `above` seeds, which alpha-beta decides.
class DfPn {
 public:
  DfPn(const Rules& rules, const Database& db, int above)
      : rules_(rules), solver_(rules, size_t{1} << 30, &db), above_(above) {}
  // Whether the bound holds.
  bool prove(const Board& b, int t, bool at_least) {
    const Goal root{b, t, at_least};
    mid(root, kInfinity, kInfinity);
    return numbers(root).proof == 0;
  }
  uint64_t alpha_beta_nodes() const { return solver_.nodes(); }
  uint64_t expanded() const { return expanded_; }

 private:
  static constexpr uint32_t kInfinity = uint32_t{1} << 30;
  struct Goal {
    Board b;
    int t;
    bool at_least;
    bool operator==(const Goal& o) const { return b == o.b && t == o.t && at_least == o.at_least; }
  };
  struct GoalHash {
    size_t operator()(const Goal& g) const {
      return BoardHash{}(g.b) ^ static_cast<size_t>(g.t * 2 + g.at_least);
    }
  };
  struct Numbers {
    uint32_t proof, disproof;
  };
  Numbers numbers(const Goal& g) const {
    if (const auto it = table_.find(g); it != table_.end()) return it->second;
    uint32_t moves = 0;
    for (int pit = 0; pit < rules_.pits; ++pit) moves += g.b.pits[pit] != 0;
    return g.at_least ? Numbers{1, moves} : Numbers{moves, 1};
  }
  void settle(const Goal& g, bool holds) {
    table_[g] = holds ? Numbers{0, kInfinity} : Numbers{kInfinity, 0};
  }
  void mid(const Goal& g, uint32_t proof_limit, uint32_t disproof_limit) {
    const int s = seeds(g.b);
    if (g.at_least ? g.t <= -s || g.t > s : g.t >= s || g.t < -s)
      return settle(g, g.at_least ? g.t <= -s : g.t >= s);
    if (is_terminal(rules_, g.b) || s <= above_) {
      const int v =
          g.at_least ? solver_.search(g.b, g.t - 1, g.t) : solver_.search(g.b, g.t, g.t + 1);
      return settle(g, g.at_least ? v >= g.t : v <= g.t);
    }
    ++expanded_;
    Goal children[kMaxPits];
    int count = 0;
    for (int pit = 0; pit < rules_.pits; ++pit) {
      if (g.b.pits[pit] == 0) continue;
      const MoveResult r = play(rules_, g.b, pit);
      children[count++] = r.extra_turn ? Goal{r.board, g.t - r.gain, g.at_least}
                                       : Goal{r.board, r.gain - g.t, !g.at_least};
    }
    for (;;) {
      // OR: proof = the least child's, disproof = the sum; AND the other way round.
      uint64_t sum = 0;
      uint32_t least = kInfinity, second = kInfinity;
      int pick = 0;
      Numbers picked{};
      for (int i = 0; i < count; ++i) {
        const Numbers c = numbers(children[i]);
        const uint32_t mine = g.at_least ? c.proof : c.disproof;
        sum += g.at_least ? c.disproof : c.proof;
        if (mine < least) {
          second = least;
          least = mine;
          pick = i;
          picked = c;
        } else if (mine < second) {
          second = mine;
        }
      }
      const uint32_t total = static_cast<uint32_t>(std::min<uint64_t>(sum, kInfinity));
      const Numbers n = g.at_least ? Numbers{least, total} : Numbers{total, least};
      table_[g] = n;
      if (n.proof >= proof_limit || n.disproof >= disproof_limit) return;
      const uint32_t next = second == kInfinity ? kInfinity : second + second / 4 + 1;
      if (g.at_least)
        mid(children[pick], std::min(proof_limit, next),
            disproof_limit - n.disproof + picked.disproof);
      else
        mid(children[pick], proof_limit - n.proof + picked.proof, std::min(disproof_limit, next));
    }
  }

  Rules rules_;
  Solver solver_;
  int above_;
  uint64_t expanded_ = 0;
  std::unordered_map<Goal, Numbers, GoalHash> table_;
};

int run(int argc, char** argv) {
  if (argc != 2 && argc != 6 && argc != 7) {
    std::fprintf(stderr, "usage: kalah-proof-bench DIR [PITS SEEDS CAPTURE LEVELS [ABOVE]]\n");
    return 2;
  }
  const int pits = argc >= 6 ? std::atoi(argv[2]) : 6;
  const int per_pit = argc >= 6 ? std::atoi(argv[3]) : 4;
  const Capture capture = argc >= 6 ? parse_capture(argv[4]) : Capture::kEmpty;
  const int levels = argc >= 6 ? std::atoi(argv[5]) : 1;
  const int above = argc == 7 ? std::atoi(argv[6]) : -1;
  const Rules rules{pits, capture, End::kImmediate, Remainder::kOwner};
  const Database db(argv[1], rules, Database::search_cache_bytes());
  const Prover prover{rules, db};
  const Board start = start_board(pits, per_pit);
  Solver solver(rules, size_t{1} << 30, &db);
  if (above < 0)
    std::printf(
        "move  value  proof of 'at least the value': alpha-beta, cheapest moves at %d "
        "level%s\n",
        levels, levels == 1 ? "" : "s");
  else
    std::printf("move  value  proof of 'at least the value': alpha-beta, df-pn above %d seeds\n",
                above);
  uint64_t plain_total = 0, oracle_total = 0;
  for (int pit = 0; pit < pits; ++pit) {
    if (start.pits[pit] == 0) continue;
    const MoveResult r = play(rules, start, pit);
    const int v = move_value(r, solver.value(r.board));
    const Window w = child_window(r, v - 1, v);
    int check;
    const uint64_t plain = prover.search(r.board, w.alpha, &check);
    uint64_t oracle;
    if (above < 0) {
      oracle = r.extra_turn ? prover.at_least(r.board, v - r.gain, levels)
                            : prover.at_most(r.board, r.gain - v, levels);
    } else {
      DfPn dfpn(rules, db, above);
      const bool holds = r.extra_turn ? dfpn.prove(r.board, v - r.gain, true)
                                      : dfpn.prove(r.board, r.gain - v, false);
      if (!holds) throw std::logic_error("df-pn disproved a move's value");
      oracle = dfpn.alpha_beta_nodes() + dfpn.expanded();
      std::printf("      df-pn: %llu alpha-beta nodes, %llu boards expanded\n",
                  static_cast<unsigned long long>(dfpn.alpha_beta_nodes()),
                  static_cast<unsigned long long>(dfpn.expanded()));
    }
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
