// cmd_solve.cpp: `kalah solve`, the exact value of a position with every move and the best line.
#include <chrono>
#include <iostream>

#include "db/database.h"
#include "solver/notation.h"
#include "solver/search.h"
#include "tools/cli.h"
#include "tools/report.h"

namespace kalah {
namespace {

struct SolveOptions {
  int pits = 0;    // 0: not given
  int seeds = -1;  // -1: not given
  std::string position;
  RuleFlags rule_flags;
  bool json = false;
  size_t table_mb = 256;
  std::string db;
};

constexpr CommandHelp kHelp = {
    "solve",
    "kalah solve [--pits M] --seeds N [rule flags] [--json]\n"
    "       kalah solve [--pits M] [--position] POSITION [rule flags] [--json]",
    "Solves a position exactly by alpha-beta search: the start position of Kalah(M,N) or any\n"
    "position you give. Prints the position, its value (the final margin for the player to move,\n"
    "stores included) with win/draw/loss, the value of every legal move (a move that earns an\n"
    "extra turn is valued with the best continuation, shown as e.g. 3-6-1), the best line to the\n"
    "end of the game, the nodes searched and the time. Without a database, boards of up to about\n"
    "30 seeds solve in seconds.",
    "  kalah solve --pits 4 --seeds 3                     Kalah(4,3), standard rules: +6\n"
    "  kalah solve --pits 3 --seeds 3 --capture empty --json\n"
    "  kalah solve 0,0,3,1/2,0,0,1/10,9                   a position, mover's pits first\n"
    "  kalah solve 0,3,1,12,2,0,0,1,9,N                   the same, absolute, North to move\n"};

int run(const SolveOptions& o) {
  Position position;
  int m = o.pits;
  if (!o.position.empty()) {
    if (o.seeds >= 0)
      throw UsageError("give either --seeds (a start position) or a position, not both");
    const ParsedPosition parsed = parse_position(o.position, o.pits);
    m = parsed.pits;
    position = parsed.position;
  } else {
    if (o.seeds < 0)
      throw UsageError("nothing to solve: give --seeds N (and --pits M) or a position");
    if (!m) m = 6;
    if (o.seeds < 1 || 2 * m * o.seeds > kMaxPositionSeeds)
      throw UsageError("--seeds must be 1.." +
                       std::to_string(std::max(1, kMaxPositionSeeds / (2 * m))) + " for " +
                       std::to_string(m) + " pits (at most " + std::to_string(kMaxPositionSeeds) +
                       " seeds in all), got " + std::to_string(o.seeds));
  }
  const Rules rules = make_rules(m, o.rule_flags);
  if (o.position.empty()) position.board = start_board(m, o.seeds);
  if (o.table_mb < 1 || o.table_mb > (size_t{1} << 20))
    throw UsageError("--tt-mb must be 1..1048576, got " + std::to_string(o.table_mb));

  const auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<Database> db;
  // A search probes all over the database: a cache that can hold all of it decodes each block
  // once (m = 6, <= 24 seeds: 1.25 GB).
  if (!o.db.empty()) db = std::make_unique<Database>(o.db, rules, size_t{1} << 40);
  Solver solver(rules, o.table_mb << 20, db.get());
  const Analysis a = analyse(solver, position);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  Report report;
  report.title = o.position.empty() ? "Kalah(" + std::to_string(m) + "," + std::to_string(o.seeds) +
                                          ") start position"
                                    : "position";
  report.rules = rules;
  report.position = position;
  report.analysis = a;
  report.source = "search";
  report.nodes = solver.nodes();
  report.seconds = seconds;
  if (o.json)
    std::cout << to_json(report).str() << "\n";
  else
    print_text(std::cout, report);
  return kExitOk;
}

}  // namespace

int cmd_solve(const std::vector<std::string>& args) {
  SolveOptions o;
  po::options_description desc("options");
  desc.add_options()("pits", po::value(&o.pits)->value_name("M"),
                     "pits per row, 1..8 (default 6; must agree "
                     "with a given position)")("seeds", po::value(&o.seeds)->value_name("N"),
                                               "seeds per pit of the start position")(
      "position", po::value(&o.position)->value_name("POS"),
      "a position: 'A/B[/x,y]' side-relative or 2m+2 bins and S|N (see 'kalah help')")(
      "json", po::bool_switch(&o.json), "print one JSON object on one line")(
      "db", po::value(&o.db)->value_name("DIR"),
      "endgame database (kalah build) whose values end the search early")(
      "tt-mb", po::value(&o.table_mb)->default_value(o.table_mb)->value_name("MB"),
      "transposition table size in MiB");
  add_rule_options(desc, o.rule_flags);
  po::positional_options_description positional;
  positional.add("position", 1);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, &positional, args, vm)) return kExitOk;
  if (vm.count("pits") && (o.pits < 1 || o.pits > kMaxPits))
    throw UsageError("--pits must be 1.." + std::to_string(kMaxPits) + ", got " +
                     std::to_string(o.pits));
  return run(o);
}

}  // namespace kalah
