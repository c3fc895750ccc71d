// cmd_solve.cpp: `kalah solve`, the exact value of a position with every move and the best line.
#include <unistd.h>

#include <iostream>

#include "base/deadline.h"
#include "base/machine.h"
#include "base/threads.h"
#include "base/units.h"
#include "game/notation.h"
#include "query/json_parts.h"
#include "query/query.h"
#include "tools/cli/cli.h"
#include "tools/cli/game_options.h"
#include "tools/cli/interrupt.h"
#include "tools/cli/processes.h"
#include "tools/cli/progress_line.h"
#include "tools/cli/report.h"

namespace kalah {
namespace {

struct SolveOptions {
  GameOptions game;
  bool json = false;
  int64_t table_mb = 0;  // 0: the query's choice (query/query.h)
  int threads = 0;
  bool pie = false;
  bool value_only = false;
  bool progress = false;
  std::string certificate;
  std::string checkpoint;
  double checkpoint_seconds = 60;
  double seconds = 0;  // --time: 0 for none
  int frontier = FrontierOptions{}.leaves_per_slot;
};

// --frontier's bound: the manager walks its whole frontier every round, so past a few thousand
// leaves a thread it spends more time walking than the leaves spread work (the commit that set it
// has the measurements).
constexpr int kMaxFrontier = 4096;
constexpr size_t kFrontierNodeBytes = 512;  // a DAG board, its edges and its index entry

constexpr CommandHelp kHelp = {
    "solve",
    "kalah solve [--pits M] --seeds N [rule flags] [--db DIR | --no-db] [--json]\n"
    "       kalah solve [--pits M] [--position] POSITION [rule flags] [--db DIR | --no-db] "
    "[--json]",
    "Solves a position exactly by alpha-beta search: the start position of Kalah(M,N) or any\n"
    "position you give. Prints the position, its value (the final margin for the player to move,\n"
    "stores included) with win/draw/loss, the value of every legal move (a move that earns an\n"
    "extra turn is valued with the best continuation, shown as e.g. 3-6-1), the best line to the\n"
    "end of the game, the nodes searched and the time. Without a database, boards of up to about\n"
    "30 seeds solve in seconds; with --db (kalah build) the search stops at the database's\n"
    "layers (by default those in the default directory, if it holds the rules). --value-only\n"
    "skips the move values and the line, far less work in big games (docs/costs.md lists\n"
    "what each game costs). On a terminal it shows its progress in place (--progress: as lines),\n"
    "with an estimate from a heuristic search at once; a search that will likely take over an\n"
    "hour says so first, and what would help. Ctrl-C prints the bounds proven so far and the\n"
    "estimate.",
    "  kalah solve --pits 4 --seeds 3                     Kalah(4,3), standard rules: +6\n"
    "  kalah solve --pits 3 --seeds 3 --capture empty --json\n"
    "  kalah solve 0,0,3,1/2,0,0,1/10,9                   a position, mover's pits first\n"
    "  kalah solve 2,0,0,1,9,0,0,3,1,10,N                 the same, absolute, North to move\n"
    "  kalah solve --seeds 4 --capture empty --db db      Kalah(6,4) with a database: +10\n"
    "  kalah solve --pits 4 --seeds 3 --pie               under the pie rule\n"
    "  kalah solve --pits 7 --seeds 3 --pie --value-only  its value: null-window tests only\n"
    "  kalah solve --seeds 5 --capture empty --db db --value-only\n"
    "                                                     Kalah(6,5): the value alone, +12\n"
    "  kalah solve --pits 4 --seeds 3 --moves 'S:2-3 N:2'  after a game's first turns\n"};

// What each kind of query shows while it works: a line in place on a terminal (elapsed time,
// nodes, bounds, moves valued, the estimate); with --progress, lines on stderr at most one a
// second (JSON with --json); a value search, whose tests may be minutes apart, a line per bound
// proven (also under mpirun, whose stderr is a pipe, with each process's rate). Called from the
// search's thread and the estimate's, one at a time.
class SolveProgress {
 public:
  SolveProgress(const Query& q, bool lines, bool json, bool over_processes)
      : q_(q),
        lines_(lines),
        json_(json),
        bound_lines_(!lines && q.ask == Ask::kValue && (line_.live() || over_processes)) {}

  void operator()(const QueryProgress& p) {
    if (p.certified)
      return line_.show("certificate: " + std::to_string(p.certified) + " positions, " + elapsed());
    if (q_.ask == Ask::kPie)
      return line_.show("pie rule: " + std::to_string(p.openings_done) + " of " +
                        std::to_string(p.openings) +
                        " openings valued; analysing: " + std::to_string(p.search.done) + " of " +
                        std::to_string(p.search.total) + " moves valued, " + elapsed());
    if (q_.ask == Ask::kPieValue)
      return line_.show("pie rule, " + std::to_string(p.openings) + " openings: search " +
                        std::to_string(p.openings_done + 1) + ", " + elapsed());
    const std::string text = progress_text(p, seconds_since(start_));
    line_.show(text);
    if (lines_) return print_line(p, text);
    if (bound_lines_ && p.search.total) print_bound(p);
  }
  void clear() { line_.clear(); }

 private:
  // --progress: a line when the bounds or the moves valued change, or a second after the last.
  void print_line(const QueryProgress& p, const std::string& text) {
    const auto now = std::chrono::steady_clock::now();
    const bool news = p.search.margin.lower != last_.lower ||
                      p.search.margin.upper != last_.upper || p.search.done != last_done_;
    if (!news && now - printed_ < std::chrono::seconds(1)) return;
    printed_ = now;
    last_ = p.search.margin;
    last_done_ = p.search.done;
    line_.clear();
    if (!json_) {
      std::cerr << "  " << text << std::endl;
      return;
    }
    const Estimate* e = p.estimate ? &*p.estimate : nullptr;
    std::cerr << progress_json("solve", q_.rules, q_.position, &p.search, e)
                     .add("nodes", p.search.nodes)
                     .add("seconds", seconds_since(start_))
                     .str()
              << std::endl;
  }
  void print_bound(const QueryProgress& p) {
    std::string text = "  value in [" + signed_number(p.search.margin.lower) + ", " +
                       signed_number(p.search.margin.upper) + "] after " +
                       std::to_string(p.search.nodes) + " nodes, " + elapsed();
    if (!p.nodes_by_process.empty()) {
      text += "; nodes/s by process:";
      char rate[32];
      for (uint64_t n : p.nodes_by_process) {
        std::snprintf(rate, sizeof rate, " %.3g", n / seconds_since(start_));
        text += rate;
      }
    }
    line_.clear();
    std::cerr << text << std::endl;
  }
  std::string elapsed() const {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", seconds_since(start_));
    return text;
  }
  ProgressLine line_;
  const Query& q_;
  const bool lines_, json_, bound_lines_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point printed_;
  Bounds last_{1, 0};
  int last_done_ = -1;
};

// The query the options ask (its database given later), with its sinks.
Query make_query(const SolveOptions& o, const Game& game) {
  Query q;
  q.rules = game.rules;
  q.position = game.position;
  q.ask = o.pie ? (o.value_only ? Ask::kPieValue : Ask::kPie)
                : (o.value_only ? Ask::kValue : Ask::kAnalysis);
  q.stop = &stop_on_interrupt();
  if (o.seconds > 0) q.deadline = seconds_from_now(o.seconds);
  q.table_mb = static_cast<size_t>(o.table_mb);
  q.note = [](const std::string& line) { std::cerr << "  " << line << std::endl; };
  q.checkpoint_dir = o.checkpoint;
  q.checkpoint_seconds = o.checkpoint_seconds;
  q.certificate = o.certificate;
  q.frontier.leaves_per_slot = o.frontier;
  // The frontier's boards, a few hundred bytes each, in at most an eighth of the memory.
  q.frontier.max_nodes = usable_memory() / 8 / kFrontierNodeBytes;
  return q;
}

// Runs the query and prints its answer: exit status 0 (also when --time ran out: the bounds
// proven and the estimate are the answer asked for), or 130 when Ctrl-C stopped it.
int run_and_print(const SolveOptions& o, const Game& game, Query& q,
                  const OpenedDatabase& database) {
  database.attach(q);
  // The heading comes first, so a long solve shows at once what it works on.
  if (!o.json) {
    print_heading(std::cout, game.title + (o.pie ? ", pie rule" : ""), q.rules, q.position);
    if (q.db)
      std::cout << "database: " << database.dir << ", layers 1.." << q.db->max_seeds() << "\n";
    std::cout.flush();
  }
  const std::string warning = long_search_warning(q, thread_count(o.threads));
  const bool warned = !warning.empty() && o.seconds == 0 && !(q.store && q.store->find(q.position));
  if (warned) std::cerr << "kalah solve: " << warning << std::endl;
  SolveProgress progress(q, o.progress, o.json, q.transport != nullptr);
  q.progress = [&](const QueryProgress& p) { progress(p); };
  // An estimate while it searches, where it is shown: on the terminal, or at a stop (the
  // warning promises it to a long search's Ctrl-C wherever its output goes).
  q.estimate =
      (o.progress || o.seconds > 0 || warned || isatty(STDERR_FILENO)) && q.transport == nullptr;
  // Progress written to a file is read later, if at all: its estimate takes no core from the
  // search.
  q.estimate_when_idle = !isatty(STDERR_FILENO);
  const Outcome out = run(q);
  progress.clear();
  if (o.json)
    std::cout << outcome_json("solve", out).str() << std::endl;
  else
    print_outcome(std::cout, out, database.dir);
  if (out.processes && out.processes->jobs) print_processes(std::cerr, *out.processes, out.seconds);
  return out.complete() || out.stopped == StopReason::kDeadline ? kExitOk : kExitInterrupted;
}

// Under mpirun: process 0 answers as ever, its search spread over every process's threads
// (parallel/frontier_search.h).
int answer_over_processes(const SolveOptions& o, const Game& game, Query& q) {
  if (o.pie || !o.certificate.empty())
    throw UsageError("--pie and --certificate run in one process: run them without mpirun");
  OpenedDatabase database;
  ProcessSearch setup;
  setup.rules = game.rules;
  setup.threads = o.threads;
  setup.stop = q.stop;
  setup.open = [&]() -> const LeafValues* {
    // The store answers without searching: a measured search should search.
    DatabaseOptions no_store = o.game.database;
    no_store.no_store = true;
    database = open_database(no_store, game.rules);
    return database.db.get();
  };
  // A process's table: what one process's root moves would have.
  setup.table_bytes = [&](const LeafValues* leaves) {
    Query sized = q;
    sized.db = leaves ? database.db.get() : nullptr;
    return table_bytes(sized) * game.rules.pits;
  };
  return search_over_processes(setup, [&](JobTransport& transport) {
    q.transport = &transport;
    return run_and_print(o, game, q, database);
  });
}

}  // namespace

int cmd_solve(const std::vector<std::string>& args, bool check_only) {
  SolveOptions o;
  po::options_description desc("options");
  add_game_options(desc, o.game);
  desc.add_options()("json", po::bool_switch(&o.json), "print one JSON object on one line")(
      "progress", po::bool_switch(&o.progress),
      "print the search's progress on stderr (time, nodes, bounds, moves valued, an estimate): "
      "a line when the bounds change, at most one a second; JSON lines with --json. On a "
      "terminal it is shown in place anyway")(
      "pie", po::bool_switch(&o.pie),
      "pie rule: after the mover's first turn the opponent may swap sides; prints every "
      "opening and the best one")(
      "value-only", po::bool_switch(&o.value_only),
      "only the position's value: no move values or line, far less work in big games; with "
      "--pie, the best opening exact and the others only shown to be no better")(
      "certificate", po::value(&o.certificate)->value_name("FILE"),
      "also write a proof of the value to FILE, which tools/checker/check_certificate.py verifies "
      "without kalah's code (docs/design.md section 8)")(
      "checkpoint", po::value(&o.checkpoint)->value_name("DIR"),
      "keep the search's progress in DIR (created if missing): the same command after Ctrl-C, "
      "a kill or a reboot continues from it instead of starting again")(
      "time", po::value(&o.seconds)->value_name("SECONDS"),
      "stop after SECONDS and print what is proven by then (the bounds, an estimate), exit "
      "status 0; as Ctrl-C does, which exits 130")(
      "checkpoint-every", po::value(&o.checkpoint_seconds)->value_name("SECONDS"),
      "seconds between checkpoints (default 60; longer when saving takes over 2 % of the time)")(
      "tt-mb", po::value(&o.table_mb)->value_name("MB"),
      "transposition table per root move, in MiB (default: 32 with --db, 256 without or with "
      "--value-only)")(
      "frontier", po::value(&o.frontier)->value_name("N"),
      "under mpirun: the top of the tree is expanded until it has N leaves a search thread of "
      "the job (default 16, at most 4096), each searched by the thread that owns it "
      "(docs/cluster.md); the manager walks them every round, so a big N costs more than it "
      "spreads");
  add_threads_option(desc, o.threads);
  po::positional_options_description positional;
  positional.add("position", 1);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, &positional, args, vm)) return kExitOk;
  if (vm.count("tt-mb")) check_range<int64_t>("--tt-mb", o.table_mb, 1, 1 << 20);
  if (o.pie && !o.certificate.empty())
    throw UsageError("--certificate proves a position's value; not with --pie");
  if (vm.count("checkpoint-every"))
    check_range<double>("--checkpoint-every", o.checkpoint_seconds, 0.01, 1e6);
  if (vm.count("frontier")) check_range("--frontier", o.frontier, 1, kMaxFrontier);
  if (vm.count("time")) check_range("--time", o.seconds, 0.01, 1e9);
  const ThreadLimit limit(o.threads);
  const Game game = resolve_game(o.game);
  const bool over_processes = under_mpirun();
  if (check_only) return kExitOk;
  // From here on Ctrl-C stops the work and prints what is proven, also while the database opens
  // (writing its decoded copies): the search then stops at once.
  Query q = make_query(o, game);
  if (over_processes) return answer_over_processes(o, game, q);
  return run_and_print(o, game, q, open_database(o.game.database, game.rules));
}

}  // namespace kalah
