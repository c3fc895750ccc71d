// cmd_fair.cpp: `kalah fair`, the fair starts of Kalah(M,N) (api/fair.h): the positions one or
// two seeds away from the start that perfect players draw.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>

#include "api/answer.h"
#include "api/fair.h"
#include "solver/notation.h"
#include "solver/threads.h"
#include "solver/units.h"
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
  bool json = false;
  int threads = 0;
};

constexpr CommandHelp kHelp = {
    "fair",
    "kalah fair [--pits M] --seeds N [--moved K] [rule flags] [--db DIR | --no-db] [--json]",
    "Finds the fair starts of Kalah(M,N) as Neller's FairKalah defines them: every distinct\n"
    "position reachable from the start by moving 1..K seeds (default 2) one at a time, from a pit\n"
    "of either row to any other pit or either store, South (the first player) to move; the fair\n"
    "ones are those whose value is exactly 0: perfect players draw. Each candidate is solved\n"
    "exactly (its search ends at the database), so the counts of every value are printed too.\n"
    "Ctrl-C prints what is known so far. Kalah(6,4) has 6,396 candidates within two seeds.",
    "  kalah fair --pits 4 --seeds 3                      Kalah(4,3), standard capture\n"
    "  kalah fair --seeds 4 --capture empty --moved 1     FairKalah's one-seed table\n"
    "  kalah fair --pits 4 --seeds 3 --json               one JSON object\n"};

void print(const FairOptions& o, const Game& game, const std::vector<FairCandidate>& c,
           size_t valued, double seconds) {
  const int m = game.rules.pits;
  std::map<int, int> values;
  std::vector<std::string> fair;
  for (size_t i = 0; i < valued; ++i) {
    ++values[c[i].value];
    if (c[i].value == 0) fair.push_back(format_absolute(c[i].position, m));
  }
  if (o.json) {
    JsonObject counts;
    for (const auto& [value, count] : values) counts.add(std::to_string(value), count);
    JsonObject out = variant_json("fair", game.rules);
    out.add("seeds", game.start.board.pits[0])
        .add("moved", o.moved)
        .add("candidates", c.size())
        .add("valued", valued)
        .add("fair", fair)
        .add("values", counts)
        .add("seconds", seconds);
    std::cout << out.str() << std::endl;
    return;
  }
  std::printf("fair starts of %s within %d seed%s moved (%s): %zu of %zu candidates%s\n",
              game.title.c_str(), o.moved, o.moved == 1 ? "" : "s", describe(game.rules).c_str(),
              fair.size(), c.size(),
              valued < c.size() ? (", " + std::to_string(valued) + " valued (stopped)").c_str() : "");
  for (size_t i = 0; i < valued; ++i)
    if (c[i].value == 0)
      std::printf("  %-40s %-40s %s\n", format_absolute(c[i].position, m).c_str(),
                  format_relative(c[i].position, m).c_str(),
                  c[i].moved == 1 ? "one seed moved" : (std::to_string(c[i].moved) + " seeds moved").c_str());
  std::printf("values for South over the candidates valued:");
  for (const auto& [value, count] : values) std::printf(" %s:%d", signed_number(value).c_str(), count);
  std::printf("\n%.1f s\n", seconds);
}

}  // namespace

int cmd_fair(const std::vector<std::string>& args, bool check_only) {
  FairOptions o;
  po::options_description desc("options");
  add_game_options(desc, o.game);
  desc.add_options()("moved", po::value(&o.moved)->value_name("K"),
                     "seeds moved from the start: 1..K (default 2)")(
      "json", po::bool_switch(&o.json), "one JSON object: candidates, fair, values");
  add_threads_option(desc, o.threads);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm)) return kExitOk;
  if (!o.game.position.empty() || !o.game.moves.empty())
    throw UsageError("kalah fair starts from the start of Kalah(M,N): give --seeds, not a position or moves");
  if (o.game.seeds < 0) throw UsageError("give --seeds N: the start the seeds are moved from");
  check_range("--moved", o.moved, 1, 3);
  const ThreadLimit limit(o.threads);
  const Game game = resolve_game(o.game);
  if (check_only) return kExitOk;
  const Tablebase tables = open_tablebase(o.game.tables, game.rules);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<FairCandidate> candidates =
      fair_candidates(game.rules.pits, game.start.board.pits[0], o.moved);
  Query base;
  base.rules = game.rules;
  tables.serve(base);
  base.store = nullptr;  // thousands of values: not the answer store's
  base.stop = &stop_on_interrupt();
  ProgressLine line;
  const size_t valued = value_candidates(base, candidates, [&](size_t done) {
    char text[96];
    std::snprintf(text, sizeof text, "[%zu/%zu] candidates valued, %.1f s", done,
                  candidates.size(), seconds_since(t0));
    line.show(text);
  });
  line.clear();
  print(o, game, candidates, valued, seconds_since(t0));
  return valued == candidates.size() ? kExitOk : kExitInterrupted;
}

}  // namespace kalah
