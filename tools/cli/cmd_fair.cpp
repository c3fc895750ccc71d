// cmd_fair.cpp: `kalah fair`, the fair starts of Kalah(M,N) (parallel/fair.h): the positions one or
// two seeds away from the start that perfect players draw.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "base/threads.h"
#include "base/units.h"
#include "game/notation.h"
#include "query/fair_query.h"
#include "query/json_parts.h"
#include "tools/cli/cli.h"
#include "tools/cli/game_options.h"
#include "tools/cli/interrupt.h"
#include "tools/cli/progress_line.h"
#include "tools/cli/report.h"

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

void print(const FairOptions& o, const Game& game, const FairOutcome& out) {
  if (o.json) {
    std::cout << outcome_json(out).str() << std::endl;
    return;
  }
  const int m = game.rules.pits;
  const std::vector<FairCandidate>& c = out.candidates;
  const FairSummary sum = summarize(c, m, o.exact);
  std::printf("fair starts of %s within %d seed%s moved (%s): %zu of %zu candidates",
              game.title.c_str(), o.moved, o.moved == 1 ? "" : "s", describe(game.rules).c_str(),
              sum.fair.size(), c.size());
  if (sum.settled < c.size())
    std::printf(" (stopped: %zu settled)", sum.settled);
  else if (!out.complete())
    std::printf(" (stopped while writing the certificates)");
  std::printf("\n");
  for (const FairCandidate& x : c)
    if (x.fair())
      std::printf("  %-40s %-40s %d seed%s moved\n", format_absolute(x.position, m).c_str(),
                  format_relative(x.position, m).c_str(), x.moved, x.moved == 1 ? "" : "s");
  std::printf("%s:", o.exact ? "values for South" : "South's result (<0 loses, 0 draws, >0 wins)");
  for (const auto& [key, count] : sum.values) std::printf(" %s:%zu", key.c_str(), count);
  std::printf("\n");
  if (out.certificates && !out.certificates->empty()) {
    uint64_t bytes = 0, positions = 0;
    for (const Certified& x : *out.certificates) bytes += x.bytes, positions += x.positions;
    std::printf(
        "%zu certificates in %s: %s, %s positions (check: tools/checker/check_certificate.py FILE "
        "--db DIR)\n",
        out.certificates->size(), o.certificates.c_str(),
        human_bytes(static_cast<double>(bytes)).c_str(), std::to_string(positions).c_str());
  }
  std::printf("%.1f s\n", out.seconds);
}

// The run's progress: the terminal's line in place and, with --progress, the first report and
// then a line a second on stderr (the library's progress JSON with --json).
class FairProgressLines {
 public:
  explicit FairProgressLines(const FairOptions& o) : o_(o) {}
  void operator()(const FairProgress& p) {
    char text[160];
    if (p.to_certify)
      std::snprintf(text, sizeof text, "[%zu/%zu] certificates written, %.1f s", p.certified,
                    p.to_certify, p.seconds);
    else
      std::snprintf(text, sizeof text, "[%zu/%zu] candidates settled, %zu fair, %.1f s", p.settled,
                    p.candidates, p.fair, p.seconds);
    line_.show(text);
    if (!o_.progress || std::chrono::steady_clock::now() - last_ < std::chrono::seconds(1)) return;
    last_ = std::chrono::steady_clock::now();
    std::cerr << (o_.json ? progress_json(p).str() : std::string("fair: ") + text) << "\n";
  }
  void clear() { line_.clear(); }

 private:
  const FairOptions& o_;
  ProgressLine line_;
  std::chrono::steady_clock::time_point last_{};  // the first report at once
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
      "which tools/checker/check_certificate.py verifies without kalah's code")(
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
  if (o.game.seeds == GameOptions::kNotGiven)
    throw UsageError("give --seeds N: the start the seeds are moved from");
  check_range("--moved", o.moved, 1, 3);
  check_range<int64_t>("--tt-mb", o.table_mb, 1, 1 << 20);
  const ThreadLimit limit(o.threads);
  const Game game = resolve_game(o.game);
  if (check_only) return kExitOk;
  const OpenedDatabase database = open_database(o.game.database, game.rules);
  FairQuery q;
  q.rules = game.rules;
  q.seeds = game.start.board.pits[0];
  q.moved = o.moved;
  q.exact = o.exact;
  q.db = database.db.get();
  q.threads = limit.threads();
  q.table_bytes = static_cast<size_t>(o.table_mb) << 20;
  q.stop = &stop_on_interrupt();
  q.checkpoint_dir = o.checkpoint;
  q.certificate_dir = o.certificates;
  FairProgressLines lines(o);
  q.progress = [&](const FairProgress& p) { lines(p); };
  q.note = [](const std::string& line) { std::cerr << line << "\n"; };
  const FairOutcome out = run(q);
  lines.clear();
  print(o, game, out);
  return out.complete() ? kExitOk : kExitInterrupted;
}

}  // namespace kalah
