// cmd_verify.cpp: `kalah verify`, checking a database three independent ways.
#include <tbb/parallel_for.h>

#include <atomic>
#include <climits>
#include <cstdio>
#include <mutex>
#include <random>

#include "solver/notation.h"
#include "solver/search.h"
#include "tools/db_tools.h"

namespace kalah {
namespace {

struct VerifyOptions {
  std::string dir;
  int pits = 6;
  RuleFlags flags;
  uint64_t sample = 10000;
  bool full = false;
  uint64_t solver_sample = 20;
  int solver_max_seeds = 16;
};

constexpr CommandHelp kHelp = {
    "verify", "kalah verify --db DIR [--pits M] [rule flags] [--sample N | --full]",
    "Checks every layer file in DIR (or of the variants the flags select) three ways:\n"
    "  1. the checksum of every file (header, blocks, index);\n"
    "  2. values recomputed from their children (one move deeper, probing the database) on N\n"
    "     random boards per layer, or on every board with --full;\n"
    "  3. values against the exact search solver on a few random boards of the small layers.\n"
    "Any problem is printed with the file it concerns and makes the exit status 1.",
    "  kalah verify --db db\n  kalah verify --db db --capture empty --full\n"};

// V of b recomputed from its children's stored values.
int from_children(const Database& db, const Board& b) {
  const Rules& r = db.rules();
  if (is_terminal(r, b)) return terminal_value(r, b);
  int best = INT_MIN;
  for (int pit = 0; pit < r.pits; ++pit) {
    if (b.pits[pit] == 0) continue;
    const MoveResult mr = play(r, b, pit);
    best = std::max(best, move_value(mr, *db.probe(mr.board)));
  }
  return best;
}

// Checks the layers of one variant; returns false on any problem.
bool verify_variant(const VerifyOptions& o, const VariantFiles& v) {
  std::printf("m=%d %s: layers %d..%d\n", v.rules.pits, describe(v.rules).c_str(), v.layers.front(),
              v.layers.back());
  bool ok = true;
  for (int s : v.layers) {
    const std::string path = o.dir + "/" + layer_file_name(v.rules, s);
    try {
      LayerFile(path, v.rules, s).check_body();
    } catch (const DatabaseError& e) {
      std::printf("  FAILED %s\n", e.what());
      ok = false;
    }
  }
  if (!ok) return false;
  std::printf("  checksums: all %zu files ok\n", v.layers.size());

  try {
    const Database db(o.dir, v.rules);
    for (int s = 1; s <= db.max_seeds(); ++s) {
      const Ranker& ranker = db.ranker();
      const uint64_t size = ranker.layer_size(s);
      const bool every = o.full || size <= o.sample;
      const uint64_t n = every ? size : o.sample;
      std::atomic<uint64_t> bad{0};
      std::mutex print;
      auto check = [&](uint64_t r) {
        const Board b = ranker.unrank(s, r);
        const int stored = decode_value(v.rules, s, db.encoded(s, r));
        const int recomputed = from_children(db, b);
        if (stored != recomputed && bad.fetch_add(1) < 5) {
          std::lock_guard lock(print);
          std::printf("  FAILED %s/%s: board %s (rank %llu) holds %d, its children give %d\n",
                      o.dir.c_str(), layer_file_name(v.rules, s).c_str(),
                      format_relative(Position{b}, v.rules.pits).c_str(),
                      static_cast<unsigned long long>(r), stored, recomputed);
        }
      };
      if (every) {
        tbb::parallel_for(uint64_t{0}, size, [&](uint64_t r) { check(r); });
      } else {
        std::mt19937_64 rng(s);
        std::vector<uint64_t> ranks(n);
        for (auto& r : ranks) r = std::uniform_int_distribution<uint64_t>(0, size - 1)(rng);
        tbb::parallel_for(size_t{0}, ranks.size(), [&](size_t i) { check(ranks[i]); });
      }
      uint64_t solved = 0;
      if (s <= o.solver_max_seeds) {
        Solver solver(v.rules, 16 << 20);
        std::mt19937_64 rng(1000 + s);
        for (; solved < std::min(o.solver_sample, size); ++solved) {
          const uint64_t r = std::uniform_int_distribution<uint64_t>(0, size - 1)(rng);
          const Board b = ranker.unrank(s, r);
          const int stored = decode_value(v.rules, s, db.encoded(s, r));
          const int exact = solver.value(b);
          if (stored != exact) {
            bad.fetch_add(1);
            std::printf("  FAILED %s/%s: board %s holds %d, the solver finds %d\n", o.dir.c_str(),
                        layer_file_name(v.rules, s).c_str(),
                        format_relative(Position{b}, v.rules.pits).c_str(), stored, exact);
          }
        }
      }
      std::printf("  layer %3d: %llu boards recomputed from children, %llu solved by search: %s\n",
                  s, static_cast<unsigned long long>(n), static_cast<unsigned long long>(solved),
                  bad ? "FAILED" : "ok");
      ok = ok && bad == 0;
    }
  } catch (const DatabaseError& e) {
    std::printf("  FAILED %s\n", e.what());
    return false;
  }
  return ok;
}

}  // namespace

int cmd_verify(const std::vector<std::string>& args) {
  VerifyOptions o;
  po::options_description desc("options");
  desc.add_options()("db", po::value(&o.dir)->required()->value_name("DIR"), "database directory")(
      "pits", po::value(&o.pits)->value_name("M"), "only databases of M pits per row")(
      "sample", po::value(&o.sample)->default_value(o.sample)->value_name("N"),
      "random boards per layer recomputed from their children")(
      "full", po::bool_switch(&o.full), "recompute every board of every layer")(
      "solver-sample", po::value(&o.solver_sample)->default_value(o.solver_sample)->value_name("N"),
      "random boards per layer compared with the search solver")(
      "solver-max-seeds",
      po::value(&o.solver_max_seeds)->default_value(o.solver_max_seeds)->value_name("S"),
      "compare with the solver only in layers up to S");
  add_rule_options(desc, o.flags);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm)) return kExitOk;
  if (o.full && !vm["sample"].defaulted()) throw UsageError("give --sample or --full, not both");

  bool ok = true;
  for (const auto& v : select_variants(o.dir, vm, o.pits, o.flags)) {
    ok = verify_variant(o, v) && ok;
    const int top = v.layers.back();
    if (static_cast<int>(v.layers.size()) != top) {
      std::printf("  FAILED %s: layers are missing below layer %d\n", o.dir.c_str(), top);
      ok = false;
    }
  }
  std::printf("%s\n", ok ? "verify: ok" : "verify: FAILED");
  return ok ? kExitOk : kExitFailure;
}

}  // namespace kalah
