// cmd_verify.cpp: `kalah verify`, checking a database three independent ways (db/verify.h).
#include <cstdio>
#include <iostream>

#include "base/threads.h"
#include "db/verify.h"
#include "query/audit.h"
#include "query/json_parts.h"
#include "solver/solver.h"
#include "tools/cli/progress_line.h"
#include "tools/cli/variants.h"

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
    "With --answers it also audits the answer store beside the database and its opening book:\n"
    "every record read back under your key and checked for sense, then against the database\n"
    "when it holds the position, else against a search of its own (at most --answer-seconds\n"
    "each; one that does not end in time is counted unchecked). A record that fails is removed.\n"
    "Any problem is printed with the file it concerns and makes the exit status 1. With --json,\n"
    "one object per rule variant holds every layer's counts and the problems found.",
    "  kalah verify --db db\n  kalah verify --db db --capture empty --full --json\n"
    "  kalah verify --db db --answers --answer-seconds 60\n"};

struct VerifyCommand {
  VerifyOptions layers;
  bool json = false;
  bool answers = false;
  double answer_seconds = 30;
};

// --answers: the variant's answer store audited (query/audit.h), a line (or a JSON object) of what
// was checked and what was removed, which are problems.
JsonObject audit_variant(const std::string& dir, const Rules& rules, const VerifyCommand& c,
                         std::vector<std::string>& problems) {
  const Database db(dir, rules);
  const AnswerStore store(dir, rules, RecordKey::user(), [](const std::string&) {});
  ProgressLine line(stderr);
  const AnswerAudit a = audit_answers(db, store, c.answer_seconds, [&](size_t done, size_t all) {
    line.show("  verify: answer " + std::to_string(done) + " of " + std::to_string(all));
  });
  line.clear();
  for (const std::string& removed : a.removed) {
    problems.push_back("removed from the answer store: " + removed);
    if (!c.json) std::printf("  FAILED removed from the answer store: %s\n", removed.c_str());
  }
  if (!c.json) {
    for (const std::string& unread : a.unreadable)
      std::printf("  skipped (cannot be read now, kept): %s\n", unread.c_str());
    std::printf(
        "  answer store %s: %llu records: %llu agree with the database, %llu with a search, "
        "%llu unchecked (not searched to the end in %g s), %llu of other keys left alone, "
        "%zu unreadable, %zu removed\n",
        store.dir().c_str(), static_cast<unsigned long long>(a.records),
        static_cast<unsigned long long>(a.by_database),
        static_cast<unsigned long long>(a.by_search), static_cast<unsigned long long>(a.unchecked),
        c.answer_seconds, static_cast<unsigned long long>(a.other_keys), a.unreadable.size(),
        a.removed.size());
  }
  return JsonObject()
      .add("dir", store.dir())
      .add("records", a.records)
      .add("by_database", a.by_database)
      .add("by_search", a.by_search)
      .add("unchecked", a.unchecked)
      .add("other_keys", a.other_keys)
      .add("unreadable", a.unreadable)
      .add("removed", a.removed);
}

// Checks the layers of one variant, printing a line per layer (or, with `json`, one object at
// the end); false on any problem.
bool verify_variant(const std::string& dir, const VariantFiles& v, const VerifyCommand& c) {
  VerifyOptions o = c.layers;
  Solver solver(v.rules, 16 << 20);  // way 3's oracle
  o.exact = [&](const Board& b) { return solver.value(b); };
  const bool json = c.json;
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
        line.show("  verify: layer " + std::to_string(s) + " of " + std::to_string(db.max_seeds()) +
                  " checked");
        if (!json)
          std::printf(
              "  layer %3d: %llu boards recomputed from children, %llu solved by search: %s\n", s,
              static_cast<unsigned long long>(c.recomputed),
              static_cast<unsigned long long>(c.solved), c.wrong ? "FAILED" : "ok");
      }
    } catch (const FileError& e) {
      fail(e.what());
    }
  }
  JsonObject answers;
  if (c.answers && problems.empty()) answers = audit_variant(dir, v.rules, c, problems);
  if (json) {
    JsonObject out = variant_json("verify", v.rules).add("db", dir).add("full", o.full);
    out.add("layers", layers);
    if (c.answers) out.add("answers", answers);
    std::cout << out.add("problems", problems).add("ok", problems.empty()).str() << std::endl;
  }
  return problems.empty();
}

}  // namespace

int cmd_verify(const std::vector<std::string>& args, bool check_only) {
  std::string dir;
  int pits = 6;
  RuleFlags flags;
  VerifyCommand c;
  VerifyOptions& o = c.layers;
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
      "answers", po::bool_switch(&c.answers),
      "also audit the answer store beside the database and its opening book")(
      "answer-seconds", po::value(&c.answer_seconds)->value_name("S"),
      "with --answers: the most time a record's search may take (default 30)")(
      "json", po::bool_switch(&c.json), "one JSON object per rule variant, one per line");
  add_threads_option(desc, threads);
  add_rule_options(desc, flags);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm)) return kExitOk;
  if (o.full && !vm["sample"].defaulted()) throw UsageError("give --sample or --full, not both");
  check_range<int64_t>("--sample", sample, 1, int64_t{1} << 40);
  check_range<int64_t>("--solver-sample", solver_sample, 0, 1000000);
  check_range("--solver-max-seeds", o.solver_max_seeds, 0, kMaxBoardSeeds);
  check_range("--answer-seconds", c.answer_seconds, 0.001, 1e6);
  o.sample = static_cast<uint64_t>(sample);
  o.solver_sample = static_cast<uint64_t>(solver_sample);
  const ThreadLimit limit(threads);
  if (check_only) return kExitOk;

  bool ok = true;
  for (const auto& v : select_variants(dir, vm, pits, flags)) ok = verify_variant(dir, v, c) && ok;
  if (!c.json) std::printf("%s\n", ok ? "verify: ok" : "verify: FAILED");
  return ok ? kExitOk : kExitFailure;
}

}  // namespace kalah
