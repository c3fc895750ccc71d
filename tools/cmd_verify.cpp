// cmd_verify.cpp: `kalah verify`, checking a database three independent ways (db/verify.h).
#include <cstdio>
#include <iostream>

#include "api/answer.h"
#include "db/verify.h"
#include "solver/threads.h"
#include "tools/progress_line.h"
#include "tools/variants.h"

namespace kalah {
namespace {

constexpr CommandHelp kHelp = {
    "verify",
    "kalah verify [--db DIR] [--pits M] [rule flags] [--sample N | --full] [--threads T] [--json]",
    "Checks every layer file in DIR (or of the variants the flags select) three ways:\n"
    "  1. the checksum of every file (header, blocks, index), and every value decoded and\n"
    "     checked to be one its layer can hold;\n"
    "  2. values recomputed from their children (one move deeper, probing the database) on N\n"
    "     random boards per layer, or on every board with --full;\n"
    "  3. values against the exact search solver on a few random boards of the small layers.\n"
    "Any problem is printed with the file it concerns and makes the exit status 1. With --json,\n"
    "one object per rule variant holds every layer's counts and the problems found.",
    "  kalah verify --db db\n  kalah verify --db db --capture empty --full --json\n"};

// Checks the layers of one variant, printing a line per layer (or, with `json`, one object at
// the end); false on any problem.
bool verify_variant(const std::string& dir, const VariantFiles& v, const VerifyOptions& o,
                    bool json) {
  std::vector<std::string> problems = check_files(dir, v);
  std::vector<JsonObject> layers;
  const auto fail = [&](const std::string& problem) {
    problems.push_back(problem);
    if (!json) std::printf("  FAILED %s\n", problem.c_str());
  };
  if (!json) {
    std::printf("m=%d %s: layers %d..%d\n", v.rules.pits, describe(v.rules).c_str(),
                v.layers.front(), v.layers.back());
    for (const auto& problem : problems) std::printf("  FAILED %s\n", problem.c_str());
    if (problems.empty())
      std::printf("  checksums and value ranges: all %zu files ok\n", v.layers.size());
  }
  if (problems.empty() && static_cast<int>(v.layers.size()) != v.layers.back())
    fail(dir + ": layers are missing below layer " + std::to_string(v.layers.back()));
  if (problems.empty()) {
    try {
      const Database db(dir, v.rules);
      ProgressLine line(stderr, std::chrono::milliseconds(0), json);  // text lines are progress
      for (int s = 1; s <= db.max_seeds(); ++s) {
        const LayerCheck c = check_layer(db, dir, s, o);
        for (const auto& problem : c.problems) fail(problem);
        if (c.wrong && c.problems.empty()) fail("layer " + std::to_string(s) + ": wrong values");
        layers.push_back(JsonObject()
                             .add("seeds", s)
                             .add("recomputed", c.recomputed)
                             .add("solved", c.solved)
                             .add("wrong", c.wrong));
        line.show("  verify: layer " + std::to_string(s) + " of " +
                  std::to_string(db.max_seeds()) + " checked");
        if (!json)
          std::printf(
              "  layer %3d: %llu boards recomputed from children, %llu solved by search: %s\n", s,
              static_cast<unsigned long long>(c.recomputed),
              static_cast<unsigned long long>(c.solved), c.wrong ? "FAILED" : "ok");
      }
    } catch (const DatabaseError& e) {
      fail(e.what());
    }
  }
  if (json)
    std::cout << variant_json("verify", v.rules)
                     .add("db", dir)
                     .add("full", o.full)
                     .add("layers", layers)
                     .add("problems", problems)
                     .add("ok", problems.empty())
                     .str()
              << std::endl;
  return problems.empty();
}

}  // namespace

int cmd_verify(const std::vector<std::string>& args, bool check_only) {
  std::string dir;
  int pits = 6;
  RuleFlags flags;
  VerifyOptions o;
  bool json = false;
  int threads = 0;
  int64_t sample = static_cast<int64_t>(o.sample),
          solver_sample = static_cast<int64_t>(o.solver_sample);
  po::options_description desc("options");
  add_db_option(desc, dir, "database directory");
  desc.add_options()("pits", po::value(&pits)->value_name("M"), "only databases of M pits per row")(
      "sample", po::value(&sample)->default_value(sample)->value_name("N"),
      "random boards per layer recomputed from their children")(
      "full", po::bool_switch(&o.full), "recompute every board of every layer")(
      "solver-sample", po::value(&solver_sample)->default_value(solver_sample)->value_name("N"),
      "random boards per layer compared with the search solver")(
      "solver-max-seeds",
      po::value(&o.solver_max_seeds)->default_value(o.solver_max_seeds)->value_name("S"),
      "compare with the solver only in layers up to S")(
      "json", po::bool_switch(&json), "one JSON object per rule variant, one per line");
  add_threads_option(desc, threads);
  add_rule_options(desc, flags);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm)) return kExitOk;
  if (o.full && !vm["sample"].defaulted()) throw UsageError("give --sample or --full, not both");
  check_range<int64_t>("--sample", sample, 1, int64_t{1} << 40);
  check_range<int64_t>("--solver-sample", solver_sample, 0, 1000000);
  check_range("--solver-max-seeds", o.solver_max_seeds, 0, kMaxBoardSeeds);
  o.sample = static_cast<uint64_t>(sample);
  o.solver_sample = static_cast<uint64_t>(solver_sample);
  const ThreadLimit limit(threads);
  if (check_only) return kExitOk;

  bool ok = true;
  for (const auto& v : select_variants(dir, vm, pits, flags))
    ok = verify_variant(dir, v, o, json) && ok;
  if (!json) std::printf("%s\n", ok ? "verify: ok" : "verify: FAILED");
  return ok ? kExitOk : kExitFailure;
}

}  // namespace kalah
