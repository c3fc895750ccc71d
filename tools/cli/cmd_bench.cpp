// cmd_bench.cpp: `kalah bench`, fixed and repeatable workloads (tools/bench/workloads.h) that print
// throughput figures and signatures.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "base/machine.h"
#include "base/threads.h"
#include "base/units.h"
#include "query/json_parts.h"
#include "tools/bench/workloads.h"
#include "tools/cli/cli.h"

namespace kalah {
namespace {

struct BenchOptions {
  int pits = 6;
  int max_seeds = 20;
  RuleFlags flags;
  int threads = 0;
  int64_t probes = 1000000;
  std::string keep;
  uint32_t format = kFormatVersion;
  bool json = false;
};

constexpr CommandHelp kHelp = {
    "bench",
    "kalah bench [--max-seeds S] [--pits M] [rule flags] [--threads T] [--keep DIR] [--json]",
    "Runs fixed workloads and prints their throughput:\n"
    "  build   all boards of m pits with up to S seeds (default m = 6, S = 20), into a temporary\n"
    "          directory (or --keep DIR): boards/s overall and computing, bytes per board;\n"
    "  probe   random boards of that database, probed once cold and once with a warm cache;\n"
    "  search  Kalah(4,4) solved by search alone: nodes and nodes/s.\n"
    "The last line holds signatures: a hash of the database files and the search node count;\n"
    "both must stay the same across thread counts and machines (scripts/bench.sh compares\n"
    "them with the recorded ones). --json prints all of it as one object at the end.",
    "  kalah bench\n  kalah bench --max-seeds 24 --capture empty\n"};

// A directory removed at the end, unless it is the user's (--keep).
struct BenchDir {
  std::string path;
  bool temporary;
  explicit BenchDir(const std::string& keep)
      : path(keep.empty() ? (std::filesystem::temp_directory_path() /
                             ("kalah-bench-" + std::to_string(::getpid())))
                                .string()
                          : keep),
        temporary(keep.empty()) {
    if (temporary) std::filesystem::remove_all(path);
  }
  ~BenchDir() {
    if (temporary) std::filesystem::remove_all(path);
  }
};

// Per computed layer from 16 seeds up: how finely its work divides among threads.
void print_layers(const std::vector<LayerEvent>& layers) {
  for (const LayerEvent& e : layers) {
    if (e.reused || e.seeds < 16) continue;
    std::printf(
        "layer %3d: %.2f s, %.2f M boards/s; largest piece %llu boards (1/%.0f of the layer), "
        "speed-up bound %.0fx\n",
        e.seeds, e.seconds, e.boards / e.compute_seconds / 1e6,
        static_cast<unsigned long long>(e.largest_piece),
        static_cast<double>(e.boards) / e.largest_piece,
        static_cast<double>(e.boards) / e.critical_path);
  }
}

void print_build(const BuildTotals& t, const std::string& dir) {
  if (t.built_boards == 0) {
    std::printf("build:  every layer was already in %s: kept, not timed\n", dir.c_str());
    return;
  }
  std::printf(
      "build:  %llu boards in %.2f s: %.2f M boards/s (computing %.2f s, %.2f M/s), "
      "%.3f bytes/board, %s; peak memory %s\n",
      static_cast<unsigned long long>(t.built_boards), t.built_seconds,
      t.built_boards / t.built_seconds / 1e6, t.compute_seconds,
      t.built_boards / t.compute_seconds / 1e6, static_cast<double>(t.built_bytes) / t.built_boards,
      human_bytes(t.built_bytes).c_str(), human_bytes(peak_memory_bytes()).c_str());
}

void print_json(const BenchOptions& o, int threads, const BuildBench& built,
                const ProbeBench& probe, const SearchBench& search, uint64_t signature) {
  std::vector<JsonObject> layers;
  for (const LayerEvent& e : built.layers)
    if (!e.reused)
      layers.push_back(JsonObject()
                           .add("seeds", e.seeds)
                           .add("boards", e.boards)
                           .add("seconds", e.seconds)
                           .add("compute_seconds", e.compute_seconds)
                           .add("file_bytes", e.file_bytes)
                           .add("memory", e.memory)
                           .add("largest_piece", e.largest_piece)
                           .add("critical_path", e.critical_path));
  const BuildTotals& t = built.totals;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(signature));
  std::cout << variant_json("bench", make_rules(o.pits, o.flags))
                   .add("max_seeds", o.max_seeds)
                   .add("threads", threads)
                   .add("build", JsonObject()
                                     .add("built_boards", t.built_boards)
                                     .add("seconds", t.built_seconds)
                                     .add("compute_seconds", t.compute_seconds)
                                     .add("file_bytes", t.built_bytes)
                                     .add("peak_memory_bytes", peak_memory_bytes())
                                     .add("layers", layers))
                   .add("probe", JsonObject()
                                     .add("probes", probe.probes)
                                     .add("cold_seconds", probe.cold_seconds)
                                     .add("warm_seconds", probe.warm_seconds)
                                     .add("decode_seconds", probe.decode_seconds)
                                     .add("memory_seconds", probe.memory_seconds)
                                     .add("memory_bytes", probe.memory_bytes))
                   .add("search", JsonObject()
                                      .add("game", "Kalah(4,4) standard")
                                      .add("value", search.value)
                                      .add("nodes", search.nodes)
                                      .add("seconds", search.seconds))
                   .add("signature",
                        JsonObject().add("database", std::string(hex)).add("search", search.nodes))
                   .str()
            << std::endl;
}

}  // namespace

int cmd_bench(const std::vector<std::string>& args, bool check_only) {
  BenchOptions o;
  po::options_description desc("options");
  desc.add_options()("pits", po::value(&o.pits)->default_value(o.pits)->value_name("M"),
                     "pits per row")(
      "max-seeds", po::value(&o.max_seeds)->default_value(o.max_seeds)->value_name("S"),
      "build layers 1..S")("probes", po::value(&o.probes)->default_value(o.probes)->value_name("N"),
                           "random probes to time")("keep", po::value(&o.keep)->value_name("DIR"),
                                                    "build into DIR and keep it")(
      "format", po::value(&o.format)->default_value(o.format)->value_name("N"),
      "layer file format to build and probe (kalah build --format)")(
      "json", po::bool_switch(&o.json), "one JSON object with every figure (docs/json.md)");
  add_threads_option(desc, o.threads);
  add_rule_options(desc, o.flags);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm)) return kExitOk;
  check_range<int64_t>("--probes", o.probes, 1, 100000000);
  BuildOptions b;
  b.rules = make_rules(o.pits, o.flags);
  b.max_seeds = o.max_seeds;
  b.threads = o.threads;
  b.format.version = o.format;
  validate(b);
  if (check_only) return kExitOk;
  const BenchDir dir(o.keep);
  b.dir = dir.path;

  const int threads = thread_count(o.threads);
  if (!o.json)
    std::printf("bench: m=%d %s, layers 1..%d, %d thread%s\n", o.pits, describe(b.rules).c_str(),
                o.max_seeds, threads, threads > 1 ? "s" : "");
  std::fflush(stdout);
  const BuildBench built = bench_build(b);
  if (!o.json) {
    print_layers(built.layers);
    print_build(built.totals, dir.path);
    std::fflush(stdout);
  }
  const Database db(dir.path, b.rules, size_t{4} << 30);
  const ProbeBench probe = bench_probes(db, o.probes);
  if (!o.json) {
    std::printf(
        "probe:  %llu random boards: cold cache %.2f s (%.2f M/s), warm %.3f s (%.2f M/s), "
        "1 thread\n",
        static_cast<unsigned long long>(probe.probes), probe.cold_seconds,
        probe.probes / probe.cold_seconds / 1e6, probe.warm_seconds,
        probe.probes / probe.warm_seconds / 1e6);
    if (probe.memory_bytes)
      std::printf(
          "        decoded in memory (%s) in %.2f s, then the same boards %.3f s (%.2f M/s)\n",
          human_bytes(probe.memory_bytes).c_str(), probe.decode_seconds, probe.memory_seconds,
          probe.probes / probe.memory_seconds / 1e6);
    std::fflush(stdout);
  }
  const SearchBench search = bench_search();
  const uint64_t signature = database_signature(db);
  if (o.json) {
    print_json(o, threads, built, probe, search, signature);
    return kExitOk;
  }
  std::printf(
      "search: Kalah(4,4) standard by search alone: %+d, %llu nodes in %.3f s (%.2f M "
      "nodes/s)\n",
      search.value, static_cast<unsigned long long>(search.nodes), search.seconds,
      search.nodes / search.seconds / 1e6);
  std::printf("signature: database %016llx  search %llu\n",
              static_cast<unsigned long long>(signature),
              static_cast<unsigned long long>(search.nodes));
  return kExitOk;
}

}  // namespace kalah
