// cmd_fair.cpp: `kalah fair`, the fair starts of Kalah(M,N) (api/fair.h): the positions one or
// two seeds away from the start that perfect players draw.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

#include "api/answer.h"
#include "api/fair.h"
#include "api/fair_checkpoint.h"
#include "db/file_names.h"
#include "solver/notation.h"
#include "solver/threads.h"
#include "solver/units.h"
#include "store/checkpoint.h"
#include "tools/cli.h"
#include "tools/game_options.h"
#include "tools/interrupt.h"
#include "tools/progress_line.h"
#include "tools/report.h"

namespace kalah {
namespace {

struct FairOptions {
  GameOptions game;
  int moved = 2;
  bool exact = false, json = false, progress = false;
  std::string checkpoint, certificates;
  int64_t table_mb = 4096;
  int threads = 0;
};

constexpr CommandHelp kHelp = {
    "fair",
    "kalah fair [--pits M] --seeds N [--moved K] [rule flags] [--db DIR | --no-db] [--exact]\n"
    "           [--checkpoint DIR] [--progress] [--json]",
    "Finds the fair starts of Kalah(M,N) as Neller's FairKalah defines them: every distinct\n"
    "position reachable from the start by moving 1..K seeds (default 2) one at a time, from a pit\n"
    "of either row to any other pit or either store, South (the first player) to move; the fair\n"
    "ones are those whose value is exactly 0: perfect players draw. Each candidate takes one or\n"
    "two null-window searches (\"does South win?\", then \"does North?\"), all on one table "
    "shared\n"
    "by the threads; --exact finds every candidate's value instead (about 9 times slower).\n"
    "On a terminal it shows its progress in place (--progress: a line a second on stderr);\n"
    "Ctrl-C prints what is known. Kalah(6,4) has 6,396 candidates within two seeds.",
    "  kalah fair --pits 4 --seeds 3                      Kalah(4,3), standard capture\n"
    "  kalah fair --seeds 4 --capture empty --moved 1     FairKalah's one-seed table\n"
    "  kalah fair --seeds 4 --checkpoint ck               resumable: run it again after a stop\n"
    "  kalah fair --seeds 4 --db big                      over a 28-seed database (kalah build\n"
    "                                                     --db big --max-seeds 28): 1-2 min\n"
    "  kalah fair --pits 4 --seeds 3 --exact --json       every value, one JSON object\n"
    "  kalah fair --pits 4 --seeds 3 --certificates c     with a proof of each fair start\n"};

void print(const FairOptions& o, const Game& game, const std::vector<FairCandidate>& c,
           const std::vector<Certified>& certified, double seconds) {
  const int m = game.rules.pits;
  if (o.json) {
    JsonObject out = fair_json(game.rules, game.start.board.pits[0], o.moved, o.exact, c);
    if (!o.certificates.empty()) {
      std::vector<JsonObject> files;
      for (const Certified& x : certified)
        files.push_back(
            JsonObject().add("file", x.file).add("bytes", x.bytes).add("positions", x.positions));
      out.add("certificates", files);
    }
    std::cout << out.add("seconds", seconds).str() << std::endl;
    return;
  }
  const FairSummary sum = summarize(c, m, o.exact);
  std::printf("fair starts of %s within %d seed%s moved (%s): %zu of %zu candidates",
              game.title.c_str(), o.moved, o.moved == 1 ? "" : "s", describe(game.rules).c_str(),
              sum.fair.size(), c.size());
  if (sum.settled < c.size()) std::printf(" (stopped: %zu settled)", sum.settled);
  std::printf("\n");
  for (const FairCandidate& x : c)
    if (x.fair())
      std::printf("  %-40s %-40s %d seed%s moved\n", format_absolute(x.position, m).c_str(),
                  format_relative(x.position, m).c_str(), x.moved, x.moved == 1 ? "" : "s");
  std::printf("%s:", o.exact ? "values for South" : "South's result (<0 loses, 0 draws, >0 wins)");
  for (const auto& [key, count] : sum.values) std::printf(" %s:%zu", key.c_str(), count);
  std::printf("\n");
  if (!certified.empty()) {
    uint64_t bytes = 0, positions = 0;
    for (const Certified& x : certified) bytes += x.bytes, positions += x.positions;
    std::printf(
        "%zu certificates in %s: %s, %s positions (check: tools/check_certificate.py FILE "
        "--db DIR)\n",
        certified.size(), o.certificates.c_str(), human_bytes(static_cast<double>(bytes)).c_str(),
        std::to_string(positions).c_str());
  }
  std::printf("%.1f s\n", seconds);
}

// Proves each fair candidate's margin 0 into a certificate in dir, the candidates shared out over
// the threads (each proof runs on one).
std::vector<Certified> certify_fair(const std::string& dir, const Game& game,
                                    const std::vector<FairCandidate>& c, const Database* db) {
  make_checkpoint_dir(dir);
  std::vector<const FairCandidate*> fair;
  for (const FairCandidate& x : c)
    if (x.fair()) fair.push_back(&x);
  std::vector<Certified> out(fair.size());
  std::atomic<size_t> done{0};
  ProgressLine line;
  tbb::parallel_for(size_t{0}, fair.size(), [&](size_t i) {
    std::string name = format_absolute(fair[i]->position, game.rules.pits);
    std::replace(name.begin(), name.end(), ',', '-');
    out[i] = certify(dir + "/fair-" + variant_name(game.rules) + "-" + name + ".cert", game.rules,
                     fair[i]->position, 0, db, &stop_on_interrupt());
    char text[64];
    std::snprintf(text, sizeof text, "[%zu/%zu] certificates written", ++done, fair.size());
    line.show(text);
  });
  return out;
}

// Told of each candidate settled: keeps it in the log, shows the terminal's line and, with
// --progress, a line a second on stderr (JSON with --json).
class FairProgress {
 public:
  FairProgress(const FairOptions& o, int pits, const std::vector<FairCandidate>& c,
               FairCheckpoint* log)
      : o_(o), c_(c), log_(log) {
    const FairSummary resumed = summarize(c, pits, o.exact);  // a checkpoint's
    done_ = resumed.settled;
    fair_ = resumed.fair.size();
  }
  void operator()(size_t i) {
    if (log_) log_->record(c_[i]);
    ++done_;
    fair_ += c_[i].fair();
    char text[160];
    std::snprintf(text, sizeof text, "[%zu/%zu] candidates settled, %zu fair, %.1f s", done_,
                  c_.size(), fair_, seconds_since(t0_));
    line_.show(text);
    if (!o_.progress || std::chrono::steady_clock::now() - last_ < std::chrono::seconds(1)) return;
    last_ = std::chrono::steady_clock::now();
    if (!o_.json) {
      std::cerr << "fair: " << text << "\n";
      return;
    }
    JsonObject p;
    p.add("command", "fair").add("settled", done_).add("candidates", c_.size());
    std::cerr << p.add("fair", fair_).add("seconds", seconds_since(t0_)).str() << "\n";
  }
  void clear() { line_.clear(); }

 private:
  const FairOptions& o_;
  const std::vector<FairCandidate>& c_;
  FairCheckpoint* log_;
  size_t done_ = 0, fair_ = 0;
  ProgressLine line_;
  const std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_ = t0_;
};

}  // namespace

int cmd_fair(const std::vector<std::string>& args, bool check_only) {
  FairOptions o;
  po::options_description desc("options");
  add_game_options(desc, o.game);
  desc.add_options()("moved", po::value(&o.moved)->value_name("K"),
                     "seeds moved from the start: 1..K (default 2)")(
      "exact", po::bool_switch(&o.exact), "every candidate's exact value, not only its sign")(
      "checkpoint", po::value(&o.checkpoint)->value_name("DIR"),
      "keep each settled candidate in DIR (created if missing): the same command after Ctrl-C, "
      "a kill or a reboot goes on from there")(
      "certificates", po::value(&o.certificates)->value_name("DIR"),
      "also prove each fair start's value 0 by a certificate in DIR (created if missing), "
      "which tools/check_certificate.py verifies without kalah's code")(
      "progress", po::bool_switch(&o.progress),
      "a line a second on stderr: candidates settled, fair so far, time (JSON with --json)")(
      "tt-mb", po::value(&o.table_mb)->value_name("MB"),
      "the most the threads' one transposition table grows to, in MiB (default 4096)")(
      "json", po::bool_switch(&o.json), "one JSON object: candidates, fair, values");
  add_threads_option(desc, o.threads);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm)) return kExitOk;
  if (!o.game.position.empty() || !o.game.moves.empty())
    throw UsageError(
        "kalah fair starts from the start of Kalah(M,N): give --seeds, not a position or moves");
  if (o.game.seeds < 0) throw UsageError("give --seeds N: the start the seeds are moved from");
  check_range("--moved", o.moved, 1, 3);
  check_range<int64_t>("--tt-mb", o.table_mb, 1, 1 << 20);
  const ThreadLimit limit(o.threads);
  const Game game = resolve_game(o.game);
  if (check_only) return kExitOk;
  const Tablebase tables = open_tablebase(o.game.tables, game.rules);
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = game.start.board.pits[0];
  std::vector<FairCandidate> candidates = fair_candidates(game.rules.pits, seeds, o.moved);
  std::unique_ptr<FairCheckpoint> log;
  if (!o.checkpoint.empty()) {
    log = std::make_unique<FairCheckpoint>(
        o.checkpoint, game.rules, seeds, o.moved, candidates,
        [](const std::string& line) { std::cerr << line << "\n"; });
    if (log->resumed())
      std::cerr << log->path() << ": resumed " << log->resumed() << " candidates\n";
  }
  FairSearch s;
  s.rules = game.rules;
  s.leaves = tables.db.get();
  s.threads = limit.threads();
  s.table_bytes = static_cast<size_t>(o.table_mb) << 20;
  s.stop = &stop_on_interrupt();
  s.exact = o.exact;
  FairProgress progress(o, game.rules.pits, candidates, log.get());
  s.settled = [&](size_t i) { progress(i); };
  bool complete = settle_candidates(s, candidates) == candidates.size();
  progress.clear();
  std::vector<Certified> certified;
  if (!o.certificates.empty() && complete) try {
      certified = certify_fair(o.certificates, game, candidates, tables.db.get());
    } catch (const SearchInterrupted&) {
      std::cerr << "kalah fair: stopped while writing the certificates (those written are kept)\n";
      complete = false;
    }
  print(o, game, candidates, certified, seconds_since(t0));
  return complete ? kExitOk : kExitInterrupted;
}

}  // namespace kalah
