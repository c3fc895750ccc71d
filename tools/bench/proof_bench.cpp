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
// With a sixth argument ABOVE, the same proofs, and the disproofs of "at least one more", by a
// df-pn: proof and disproof numbers over the boards of more than ABOVE seeds, alpha-beta below,
// in one table (thresholds widened by a quarter against thrashing). An unexpanded board's numbers
// count its mover's moves for the side that needs them all, times FACTOR (default 1: boards
// alone) to the power of its seeds above the database: the alpha-beta work below it. Nodes are
// the alpha-beta nodes plus the boards expanded; seconds are one thread's.
//
//   kalah-proof-bench DIR [PITS SEEDS CAPTURE LEVELS [ABOVE [FACTOR]]]   (default: 6 4 empty 1)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "base/units.h"
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
  DfPn(const Rules& rules, const Database& db, int above, double factor)
      : rules_(rules),
        solver_(rules, size_t{1} << 30, &db),
        above_(above),
        db_max_(db.max_seeds()) {
    for (int s = 0; s < 256; ++s)  // below kInfinity / 16, so that sums of numbers stay finite
      work_[s] = static_cast<uint64_t>(std::min(std::pow(factor, std::max(0, s - db_max_)),
                                                static_cast<double>(kInfinity >> 4)));
    table_.reserve(size_t{1} << 22);
  }
  // Whether the bound holds.
  bool prove(const Board& b, int t, bool at_least) {
    const Goal root{b, t, at_least};
    mid(root, kInfinity, kInfinity);
    return numbers(root).proof == 0;
  }
  uint64_t alpha_beta_nodes() const { return solver_.nodes(); }
  uint64_t expanded() const { return expanded_; }

 private:
  static constexpr uint64_t kInfinity = uint64_t{1} << 60;
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
    uint64_t proof, disproof;
  };
  // An unexpanded board's numbers: the proofs its mover's every move needs count each of its moves,
  // and all count the alpha-beta work below a board, taken to grow by factor_ a seed above the
  // database (1: count boards alone).
  Numbers numbers(const Goal& g) const {
    if (const auto it = table_.find(g); it != table_.end()) return it->second;
    uint64_t moves = 0;
    for (int pit = 0; pit < rules_.pits; ++pit) moves += g.b.pits[pit] != 0;
    const uint64_t work = work_[seeds(g.b)];
    return g.at_least ? Numbers{work, work * moves} : Numbers{work * moves, work};
  }
  void settle(const Goal& g, bool holds) {
    table_[g] = holds ? Numbers{0, kInfinity} : Numbers{kInfinity, 0};
  }
  void mid(const Goal& g, uint64_t proof_limit, uint64_t disproof_limit) {
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
    Numbers known[kMaxPits];  // the children's numbers, read again only for the child searched
    int count = 0;
    for (int pit = 0; pit < rules_.pits; ++pit) {
      if (g.b.pits[pit] == 0) continue;
      const MoveResult r = play(rules_, g.b, pit);
      children[count] = r.extra_turn ? Goal{r.board, g.t - r.gain, g.at_least}
                                     : Goal{r.board, r.gain - g.t, !g.at_least};
      known[count] = numbers(children[count]);
      ++count;
    }
    Numbers& entry = table_[g];  // stable: an unordered_map's elements do not move
    for (;;) {
      // OR: proof = the least child's, disproof = the sum; AND the other way round.
      uint64_t sum = 0;
      uint64_t least = kInfinity, second = kInfinity;
      int pick = 0;
      Numbers picked{};
      for (int i = 0; i < count; ++i) {
        const Numbers c = known[i];
        const uint64_t mine = g.at_least ? c.proof : c.disproof;
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
      const uint64_t total = std::min(sum, kInfinity);
      const Numbers n = g.at_least ? Numbers{least, total} : Numbers{total, least};
      entry = n;
      if (n.proof >= proof_limit || n.disproof >= disproof_limit) return;
      const uint64_t next = second == kInfinity ? kInfinity : second + second / 4 + 1;
      if (g.at_least)
        mid(children[pick], std::min(proof_limit, next),
            disproof_limit - n.disproof + picked.disproof);
      else
        mid(children[pick], proof_limit - n.proof + picked.proof, std::min(disproof_limit, next));
      known[pick] = numbers(children[pick]);
    }
  }

  Rules rules_;
  Solver solver_;
  int above_;
  int db_max_;
  uint64_t work_[256];  // by seeds on the board (a Board holds at most 255)
  uint64_t expanded_ = 0;
  std::unordered_map<Goal, Numbers, GoalHash> table_;
};

int run(int argc, char** argv) {
  if (argc != 2 && (argc < 6 || argc > 8)) {
    std::fprintf(stderr,
                 "usage: kalah-proof-bench DIR [PITS SEEDS CAPTURE LEVELS [ABOVE [FACTOR]]]\n");
    return 2;
  }
  const int pits = argc >= 6 ? std::atoi(argv[2]) : 6;
  const int per_pit = argc >= 6 ? std::atoi(argv[3]) : 4;
  const Capture capture = argc >= 6 ? parse_capture(argv[4]) : Capture::kEmpty;
  const int levels = argc >= 6 ? std::atoi(argv[5]) : 1;
  const int above = argc >= 7 ? std::atoi(argv[6]) : -1;
  const double factor = argc == 8 ? std::atof(argv[7]) : 1;
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
    std::printf(
        "move  value  'at least the value' (proof) and 'at least one more' (disproof):\n"
        "             alpha-beta, df-pn above %d seeds with work %.2f a seed (nodes: alpha-beta "
        "and boards expanded)\n",
        above, factor);
  uint64_t plain_total = 0, other_total = 0;
  double plain_seconds = 0, other_seconds = 0;
  for (int pit = 0; pit < pits; ++pit) {
    if (start.pits[pit] == 0) continue;
    const MoveResult r = play(rules, start, pit);
    const int v = move_value(r, solver.value(r.board));
    if (above < 0) {
      int check;
      const uint64_t plain = prover.search(r.board, child_window(r, v - 1, v).alpha, &check);
      const uint64_t oracle = r.extra_turn ? prover.at_least(r.board, v - r.gain, levels)
                                           : prover.at_most(r.board, r.gain - v, levels);
      plain_total += plain;
      other_total += oracle;
      std::printf("%4d %+6d  %12llu %12llu  (%.1fx)\n", pit + 1, v,
                  static_cast<unsigned long long>(plain), static_cast<unsigned long long>(oracle),
                  static_cast<double>(plain) / oracle);
      continue;
    }
    for (const int t : {v, v + 1}) {
      auto start_time = std::chrono::steady_clock::now();
      int check;
      const uint64_t plain = prover.search(r.board, child_window(r, t - 1, t).alpha, &check);
      const double plain_time = seconds_since(start_time);
      start_time = std::chrono::steady_clock::now();
      DfPn dfpn(rules, db, above, factor);
      const bool holds = r.extra_turn ? dfpn.prove(r.board, t - r.gain, true)
                                      : dfpn.prove(r.board, r.gain - t, false);
      if (holds != (t == v)) throw std::logic_error("df-pn and alpha-beta disagree");
      const double dfpn_time = seconds_since(start_time);
      const uint64_t dfpn_nodes = dfpn.alpha_beta_nodes() + dfpn.expanded();
      plain_total += plain;
      other_total += dfpn_nodes;
      plain_seconds += plain_time;
      other_seconds += dfpn_time;
      std::printf(
          "%4d %+6d  %-8s alpha-beta %11llu nodes %6.2f s, df-pn %11llu + %10llu %6.2f s"
          "  (%.1fx nodes, %.1fx time)\n",
          pit + 1, v, t == v ? "proof" : "disproof", static_cast<unsigned long long>(plain),
          plain_time, static_cast<unsigned long long>(dfpn.alpha_beta_nodes()),
          static_cast<unsigned long long>(dfpn.expanded()), dfpn_time,
          static_cast<double>(plain) / dfpn_nodes, plain_time / dfpn_time);
    }
  }
  std::printf("all         %12llu %12llu  (%.1fx)", static_cast<unsigned long long>(plain_total),
              static_cast<unsigned long long>(other_total),
              static_cast<double>(plain_total) / other_total);
  if (above >= 0)
    std::printf("  %.1f s against %.1f s (%.1fx)", plain_seconds, other_seconds,
                plain_seconds / other_seconds);
  std::printf("\n");
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
