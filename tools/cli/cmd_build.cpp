// cmd_build.cpp: `kalah build`, building or resuming a database directory.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <mutex>

#include "base/machine.h"
#include "base/threads.h"
#include "base/units.h"
#include "db/layer_file.h"
#include "query/json_parts.h"
#include "retrograde/builder.h"
#include "retrograde/memory_plan.h"
#include "tools/cli/cli.h"
#include "tools/cli/processes.h"
#include "tools/cli/progress_line.h"

namespace kalah {
namespace {

struct BuildCommandOptions {
  std::string dir;
  int pits = 6;
  int max_seeds = 0;
  RuleFlags rule_flags;
  int threads = 0;
  double memory_gib = 0;
  bool lean = false;
  int zstd_level = kDefaultZstdLevel;
  uint32_t format = kFormatVersion;
  bool json = false;
};

constexpr CommandHelp kHelp = {
    "build",
    "kalah build [--db DIR] [--pits M] --max-seeds S [rule flags] [--threads T] [--memory GIB]",
    "Builds the endgame database of one rule variant: the value of every board with 1..S seeds\n"
    "on the pits, one file per layer (e.g. kalah-m6-empty-immediate-owner-s20.kdb), by\n"
    "retrograde analysis from layer 1 up. Layers hold values for the player to move, so any\n"
    "stores are answered. Rerunning resumes: valid layer files are kept, a layer interrupted\n"
    "mid-way is recomputed, and the files come out byte-identical for any thread count.\n"
    "Memory: all layers up to the one being built are held raw (1 byte per board; for m = 6,\n"
    "layers up to 20 hold 0.23 GB, up to 24 1.25 GB, up to 30 11.1 GB). When that exceeds\n"
    "--memory the build runs in lean mode: only the layer being built is held raw (m = 6,\n"
    "30 seeds: 3.2 GB; 34 seeds: 10.2 GB), with the layers below it while they fit, and the\n"
    "others are read from their files in chunks of boards, each block decoded once a chunk\n"
    "(the bigger the limit, the bigger the chunks). The same files come out; the memory each\n"
    "layer needs is printed before it starts.\n"
    "Over several processes or machines: mpirun -np P kalah build ... (kalah configured with\n"
    "-DKALAH_MPI=ON) shares every layer among the P processes and writes the same files;\n"
    "--memory and --threads are then per process (docs/cluster.md).",
    "  kalah build --db db --max-seeds 20 --capture empty\n"
    "  kalah build --db db --pits 4 --max-seeds 16 --threads 1\n"
    "  kalah build --db db --max-seeds 30 --memory 8           lean mode within 8 GiB\n"
    "  mpirun -np 4 kalah build --db /shared/db --max-seeds 36   over 4 processes\n"};

// With --json: one object per line for each event (start, note, layer, done; docs/json.md).
class JsonReporter : public BuildObserver {
 public:
  explicit JsonReporter(const Rules& rules) : rules_(rules) {}

  JsonObject event(const char* name) const {
    return variant_json("build", rules_).add("event", name);
  }
  void layer_finished(const LayerEvent& e) override {
    std::lock_guard lock(mutex_);
    totals_.add(e);
    print(event("layer")
              .add("seeds", e.seeds)
              .add("boards", e.boards)
              .add("memory_bytes", e.memory)
              .add("kept", e.reused)
              .add("seconds", e.seconds)
              .add("compute_seconds", e.compute_seconds)
              .add("file_bytes", e.file_bytes)
              .add("bytes_per_board", static_cast<double>(e.file_bytes) / e.boards));
  }
  void note(const std::string& text) override {
    std::lock_guard lock(mutex_);
    print(event("note").add("text", text));
  }
  void summary() const {
    const BuildTotals& t = totals_;
    print(event("done")
              .add("boards", t.boards)
              .add("file_bytes", t.file_bytes)
              .add("built_boards", t.built_boards)
              .add("built_seconds", t.built_seconds)
              .add("compute_seconds", t.compute_seconds)
              .add("peak_memory_bytes", peak_memory_bytes()));
  }
  static void print(const JsonObject& j) { std::cout << j.str() << "\n" << std::flush; }

 private:
  Rules rules_;
  std::mutex mutex_;
  BuildTotals totals_;
};

// One line per layer: the memory column is printed before the layer starts, the rest when it ends;
// on a terminal a progress bar with rate and ETA fills the line meanwhile.
class Reporter : public BuildObserver {
 public:
  explicit Reporter(bool live) : line_(stdout, std::chrono::milliseconds(200), live) {}

  void layer_started(const LayerEvent& e) override {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%5d %14llu %11s", e.seeds,
                  static_cast<unsigned long long>(e.boards), human_bytes(e.memory).c_str());
    std::lock_guard lock(mutex_);
    head_ = buf;
    start_ = std::chrono::steady_clock::now();
    std::cout << head_ << std::flush;
  }

  void layer_progress(int, uint64_t done, uint64_t total) override {
    if (!line_.live()) return;
    std::lock_guard lock(mutex_);
    const double rate = done / std::max(seconds_since(start_), 1e-9);
    const int width = 24, filled = static_cast<int>(width * done / std::max<uint64_t>(total, 1));
    char buf[160];
    std::snprintf(buf, sizeof buf, "  [%s%s] %3d%%  %.1f M boards/s  ETA %.0f s",
                  std::string(filled, '#').c_str(), std::string(width - filled, ' ').c_str(),
                  static_cast<int>(100 * done / std::max<uint64_t>(total, 1)), rate / 1e6,
                  (total - done) / std::max(rate, 1.0));
    line_.show(head_ + buf);
  }

  void layer_finished(const LayerEvent& e) override {
    std::lock_guard lock(mutex_);
    char buf[160];
    if (e.reused)
      std::snprintf(buf, sizeof buf, " %9s %14s %12.3f  %s (kept)", "-", "-",
                    static_cast<double>(e.file_bytes) / e.boards,
                    human_bytes(e.file_bytes).c_str());
    else
      std::snprintf(buf, sizeof buf, " %9.2f %14.0f %12.3f  %s", e.seconds,
                    e.boards / std::max(e.seconds, 1e-9),
                    static_cast<double>(e.file_bytes) / e.boards,
                    human_bytes(e.file_bytes).c_str());
    if (line_.live())
      line_.finish(head_ + buf);
    else
      std::cout << buf << "\n" << std::flush;
    totals_.add(e);
  }

  void note(const std::string& text) override {
    std::lock_guard lock(mutex_);
    std::cout << "note: " << text << "\n" << std::flush;
  }

  void summary() const {
    const BuildTotals& t = totals_;
    std::printf("total: %llu boards, %s on disk (%.3f bytes/board)",
                static_cast<unsigned long long>(t.boards), human_bytes(t.file_bytes).c_str(),
                static_cast<double>(t.file_bytes) / std::max<uint64_t>(t.boards, 1));
    if (t.built_boards)
      std::printf("; built %llu boards in %.1f s (%.2f M boards/s; computing %.1f s, %.2f M/s)",
                  static_cast<unsigned long long>(t.built_boards), t.built_seconds,
                  t.built_boards / t.built_seconds / 1e6, t.compute_seconds,
                  t.built_boards / t.compute_seconds / 1e6);
    std::printf("; peak memory %s\n", human_bytes(peak_memory_bytes()).c_str());
  }

 private:
  ProgressLine line_;
  std::mutex mutex_;
  std::string head_;
  std::chrono::steady_clock::time_point start_;
  BuildTotals totals_;
};

// Prints the start, runs build(observer) with the reporter that --json asks for, prints the end.
// `processes` is 0 for a build in this process alone.
int report_build(const BuildCommandOptions& cmd, const BuildOptions& build_options, bool lean,
                 uint64_t peak, int processes, const std::function<void(BuildObserver&)>& build) {
  const int threads = thread_count(build_options.threads);
  if (cmd.json) {
    JsonReporter reporter(build_options.rules);
    JsonReporter::print(reporter.event("start")
                            .add("db", cmd.dir)
                            .add("max_seeds", cmd.max_seeds)
                            .add("threads", threads)
                            .add("lean", lean)
                            .add("estimated_peak_bytes", peak));
    build(reporter);
    reporter.summary();
    return kExitOk;
  }
  std::cout << "building " << cmd.dir << ": m=" << cmd.pits << " " << describe(build_options.rules)
            << ", layers 1.." << cmd.max_seeds << ", "
            << (processes ? std::to_string(processes) + " processes, " : "") << threads << " thread"
            << (threads > 1 ? "s" : "") << (processes ? " each" : "") << "\n"
            << "layer         boards      memory   seconds       boards/s  bytes/board  file\n"
            << std::flush;
  // Under mpirun process 0's output is a terminal whatever the user's is: lines only.
  Reporter reporter(!processes);
  build(reporter);
  reporter.summary();
  return kExitOk;
}

}  // namespace

int cmd_build(const std::vector<std::string>& args, bool check_only) {
  BuildCommandOptions o;
  po::options_description desc("options");
  add_db_option(desc, o.dir, "database directory (created)");
  desc.add_options()("pits", po::value(&o.pits)->default_value(o.pits)->value_name("M"),
                     "pits per row, 1..8")(
      "max-seeds", po::value(&o.max_seeds)->required()->value_name("S"),
      "build layers 1..S (boards with up to S seeds on the pits)")(
      "memory", po::value(&o.memory_gib)->default_value(0)->value_name("GIB"),
      "memory limit; 0 = the machine's memory, or the cgroup's or ulimit -v's if less. Past it the "
      "build switches to lean mode, or "
      "refuses to start if even that does not fit")(
      "lean", po::bool_switch(&o.lean),
      "lean mode even when the layers would fit raw: the layer being built raw, the lower "
      "ones read from their files in chunks (the rest of --memory)")(
      "format", po::value(&o.format)->default_value(o.format)->value_name("N"),
      "layer file format: 3 is searched where it lies, a probe reading one 64-byte line (about 3.4 "
      "bits a board, docs/design.md §6.2); 2 is the older format searched in place (3.5 bits, "
      "slower); 1 the oldest, zstd, which a search decodes into copies of 8 bits a board. Valid "
      "layers of another format are rewritten in this one, values unchanged")(
      "zstd-level", po::value(&o.zstd_level)->default_value(o.zstd_level)->value_name("L"),
      "format 1 only: zstd compression level 1..19, higher is smaller and slower to build")(
      "json", po::bool_switch(&o.json), "one JSON object per line for each event (docs/json.md)");
  add_threads_option(desc, o.threads);
  add_rule_options(desc, o.rule_flags);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm)) return kExitOk;
  check_range("--memory", o.memory_gib, 0.0, 1e6);  // GiB; 0: usable_memory()
  BuildOptions b;
  b.rules = make_rules(o.pits, o.rule_flags);
  b.dir = o.dir;
  b.max_seeds = o.max_seeds;
  b.threads = o.threads;
  b.format = {o.format, o.zstd_level};
  b.memory_limit = static_cast<uint64_t>(o.memory_gib * (1ull << 30));
  b.lean = o.lean;
  validate(b);
  if (check_only) return kExitOk;
  if (under_mpirun())
    return build_over_processes(
        b, [&](const BuildOptions& per_process, uint64_t peak, int processes, const auto& build) {
          report_build(o, per_process, false, peak, processes, build);
        });
  // Refuses a build that cannot fit, before anything is printed.
  const MemoryPlan plan = plan_memory(b, Ranker(b.rules.pits, b.max_seeds));
  return report_build(o, b, plan.lean, plan.peak, 0,
                      [&](BuildObserver& observer) { build_database(b, observer); });
}

}  // namespace kalah
