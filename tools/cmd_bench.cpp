// cmd_bench.cpp: `kalah bench`, fixed and repeatable workloads that print throughput figures and
// signatures (a signature changes only when results or file bytes change).
#include <tbb/info.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>

#include "db/builder.h"
#include "db/checksum.h"
#include "solver/search.h"
#include "tools/db_tools.h"

namespace kalah {
namespace {

struct BenchOptions {
  int pits = 6;
  int max_seeds = 20;
  RuleFlags flags;
  int threads = 0;
  uint64_t probes = 1000000;
  std::string keep;
};

constexpr CommandHelp kHelp = {
    "bench", "kalah bench [--max-seeds S] [--pits M] [rule flags] [--threads T] [--keep DIR]",
    "Runs fixed workloads and prints their throughput:\n"
    "  build   all boards of m pits with up to S seeds (default m = 6, S = 20), into a temporary\n"
    "          directory (or --keep DIR): boards/s overall and computing, bytes per board;\n"
    "  probe   random boards of that database, probed once cold and once with a warm cache;\n"
    "  search  Kalah(4,4) solved by search alone: nodes and nodes/s.\n"
    "The last line holds signatures: a hash of the database files and the search node count;\n"
    "both must stay the same across thread counts and machines.",
    "  kalah bench\n  kalah bench --max-seeds 24 --capture empty\n"};

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Collect : BuildObserver {
  double seconds = 0, compute = 0;
  uint64_t boards = 0, bytes = 0;
  void layer_finished(const LayerEvent& e) override {
    if (e.reused) return;
    seconds += e.seconds;
    compute += e.compute_seconds;
    boards += e.boards;
    bytes += e.file_bytes;
  }
};

}  // namespace

int cmd_bench(const std::vector<std::string>& args) {
  BenchOptions o;
  po::options_description desc("options");
  desc.add_options()("pits", po::value(&o.pits)->default_value(o.pits)->value_name("M"),
                     "pits per row")(
      "max-seeds", po::value(&o.max_seeds)->default_value(o.max_seeds)->value_name("S"),
      "build layers 1..S")("threads", po::value(&o.threads)->default_value(0)->value_name("T"),
                           "0 = all cores")(
      "probes", po::value(&o.probes)->default_value(o.probes)->value_name("N"),
      "random probes to time")("keep", po::value(&o.keep)->value_name("DIR"),
                               "build into DIR and keep it");
  add_rule_options(desc, o.flags);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm)) return kExitOk;
  const Rules rules = make_rules(o.pits, o.flags);
  if (o.max_seeds < 1 || o.max_seeds > max_layer(rules))
    throw UsageError("--max-seeds must be 1.." + std::to_string(max_layer(rules)));

  const bool temporary = o.keep.empty();
  const std::string dir =
      temporary
          ? (std::filesystem::temp_directory_path() / ("kalah-bench-" + std::to_string(::getpid())))
                .string()
          : o.keep;
  if (temporary) std::filesystem::remove_all(dir);
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      if (!dir.empty()) std::filesystem::remove_all(dir);
    }
  } cleanup{temporary ? dir : ""};

  const int threads = o.threads > 0 ? o.threads : tbb::info::default_concurrency();
  std::printf("bench: m=%d %s, layers 1..%d, %d thread%s\n", o.pits, describe(rules).c_str(),
              o.max_seeds, threads, threads > 1 ? "s" : "");
  std::fflush(stdout);

  BuildOptions b;
  b.dir = dir;
  b.rules = rules;
  b.max_seeds = o.max_seeds;
  b.threads = o.threads;
  Collect built;
  build_database(b, built);
  if (built.boards == 0)
    std::printf("build:  every layer was already in %s: kept, not timed\n", dir.c_str());
  else
    std::printf(
        "build:  %llu boards in %.2f s: %.2f M boards/s (computing %.2f s, %.2f M/s), "
        "%.3f bytes/board, %s\n",
        static_cast<unsigned long long>(built.boards), built.seconds,
        built.boards / built.seconds / 1e6, built.compute, built.boards / built.compute / 1e6,
        static_cast<double>(built.bytes) / built.boards, human_bytes(built.bytes).c_str());
  std::fflush(stdout);

  const Database db(dir, rules, size_t{4} << 30);
  Checksum signature;
  for (int s = 1; s <= db.max_seeds(); ++s) {
    const uint64_t c = db.layer(s).header().body_checksum;
    signature.update(&c, sizeof c);
  }
  // Random boards, each layer weighted by its size.
  std::mt19937_64 rng(2026);
  std::vector<Board> boards(o.probes);
  std::vector<double> weights;
  for (int s = 0; s <= db.max_seeds(); ++s)
    weights.push_back(s ? static_cast<double>(db.ranker().layer_size(s)) : 0.0);
  std::discrete_distribution<int> layer_of(weights.begin(), weights.end());
  for (auto& board : boards) {
    const int s = layer_of(rng);
    board = db.ranker().unrank(
        s, std::uniform_int_distribution<uint64_t>(0, db.ranker().layer_size(s) - 1)(rng));
  }
  int64_t sum = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (const auto& board : boards) sum += *db.probe(board);
  const double cold = since(t0);
  t0 = std::chrono::steady_clock::now();
  for (const auto& board : boards) sum -= *db.probe(board);
  const double warm = since(t0);
  if (sum != 0) throw std::logic_error("probes disagree between passes");
  std::printf(
      "probe:  %llu random boards: cold cache %.2f s (%.2f M/s), warm %.3f s (%.2f M/s), "
      "1 thread\n",
      static_cast<unsigned long long>(o.probes), cold, o.probes / cold / 1e6, warm,
      o.probes / warm / 1e6);
  std::fflush(stdout);

  const Rules search_rules{4, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  Solver solver(search_rules, size_t{256} << 20);
  t0 = std::chrono::steady_clock::now();
  const int v = solver.value(start_board(4, 4));
  const double search_seconds = since(t0);
  std::printf(
      "search: Kalah(4,4) standard by search alone: %+d, %llu nodes in %.3f s (%.2f M "
      "nodes/s)\n",
      v, static_cast<unsigned long long>(solver.nodes()), search_seconds,
      solver.nodes() / search_seconds / 1e6);
  std::printf("signature: database %016llx  search %llu\n",
              static_cast<unsigned long long>(signature.digest()),
              static_cast<unsigned long long>(solver.nodes()));
  return kExitOk;
}

}  // namespace kalah
