// cmd_solve.cpp: `kalah solve`, the exact value of a position with every move and the best line.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <mutex>

#include "api/analyse.h"
#include "db/database.h"
#include "solver/notation.h"
#include "solver/openings.h"
#include "solver/parallel_search.h"
#include "solver/threads.h"
#include "solver/units.h"
#include "tools/cli.h"
#include "tools/game_options.h"
#include "tools/report.h"
#include "tools/solve_files.h"
#ifdef KALAH_MPI
#include "mpi/launch.h"
#endif

namespace kalah {
namespace {

struct SolveOptions {
  GameOptions game;
  bool json = false;
  int64_t table_mb = 0;  // 0: 32 MiB for a full analysis with a database, else 256 MiB
  int threads = 0;
  bool pie = false;
  bool value_only = false;
  std::string certificate;
  std::string checkpoint;
  double checkpoint_seconds = 60;
  int frontier = FrontierOptions{}.leaves_per_slot;
};

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
    "skips the move values and the line, far less work in big games (the README lists what\n"
    "each game costs). Ctrl-C prints the bounds proven so far.",
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

std::atomic<bool> g_stop{false};
extern "C" void on_interrupt(int) {
  g_stop.store(true);
}

// What to solve, and how, once the options are checked.
struct Job {
  Rules rules;
  Position position;
  std::string title;
  std::unique_ptr<Database> db;
  size_t table_bytes = 0;  // per root move
  bool json = false;
  std::string db_dir;        // of db, if any
  std::string certificate;   // --certificate FILE
  std::unique_ptr<Checkpoints> checkpoints;  // --checkpoint DIR
  OverProcesses over;                        // under mpirun

  const Checkpointing* checkpointing() const {
    return checkpoints ? &checkpoints->checkpointing : nullptr;
  }
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

  double elapsed() const { return seconds_since(start); }
};

// Ctrl-C: the bounds proven so far (exit status 130). `earlier_nodes`: the runs a checkpoint
// resumed from searched them, as a finished answer counts them.
int interrupted(const Job& job, int lo, int hi, uint64_t nodes, uint64_t earlier_nodes) {
  const char* mover = side_name(job.position.mover);
  if (job.json) {
    JsonObject answer =
        interrupted_json("solve", job.rules, job.position, lo, hi, nodes, job.elapsed());
    std::cout << add_earlier_nodes(answer, earlier_nodes).str() << std::endl;
    return kExitInterrupted;
  }
  std::cout << "interrupted after " << nodes << " nodes";
  if (earlier_nodes) std::cout << " (and " << earlier_nodes << " before the checkpoint)";
  std::cout << ", " << job.elapsed() << " s: the value for " << mover;
  if (lo == hi)
    std::cout << " is " << signed_number(lo) << "; the rest of the analysis was not finished\n";
  else
    std::cout << " lies in [" << signed_number(lo) << ", " << signed_number(hi) << "]\n";
  std::cout.flush();
  return kExitInterrupted;
}

// A progress line on stderr, rewritten in place, when stderr is a terminal; erased at the end.
class Progress {
 public:
  explicit Progress(const Job& job) : job_(job), live_(isatty(STDERR_FILENO)) {}
  ~Progress() { clear(); }
  // Erases the line, before the answer is printed.
  void clear() {
    std::lock_guard lock(mutex_);
    if (shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }
  void show(const std::string& what) {
    if (!live_) return;
    std::lock_guard lock(mutex_);
    std::fprintf(stderr, "\r  %s, %.1f s\033[K", what.c_str(), job_.elapsed());
    shown_ = true;
  }

 private:
  const Job& job_;
  const bool live_;
  bool shown_ = false;
  std::mutex mutex_;
};

// --certificate: the proof of the value found, written before the answer is printed so that
// the answer can name it. Throws SearchInterrupted.
std::optional<Certified> certify(const Job& job, int margin) {
  if (job.certificate.empty()) return std::nullopt;
  Progress progress(job);
  return certify(job.certificate, job.rules, job.position, margin, job.db.get(), &g_stop,
                 [&](uint64_t positions) {
                   progress.show("certificate: " + std::to_string(positions) + " positions");
                 });
}

int solve_pie(const Job& job, bool value_only, const CheckpointsFor& checkpoints) {
  Progress progress(job);
  const size_t total = openings(job.rules, job.position).size();
  const PieOutcome out =
      value_only
          ? pie_value_position(job.rules, job.position, job.db.get(), job.table_bytes, &g_stop,
                               [&](size_t searched) {
                                 progress.show("pie rule, " + std::to_string(total) +
                                               " openings: search " +
                                               std::to_string(searched + 1));
                               },
                               checkpoints)
          : pie_position(job.rules, job.position, job.db.get(), job.table_bytes, &g_stop,
                         [&](size_t valued, const AnalysisProgress& now) {
                           progress.show("pie rule: " + std::to_string(valued) + " of " +
                                         std::to_string(total) +
                                         " openings valued; analysing: " +
                                         std::to_string(now.done) + " of " +
                                         std::to_string(now.total) + " moves valued");
                         },
                         checkpoints);
  progress.clear();
  if (out.interrupted) {
    const int s = seeds(job.position.board);
    const int stores = job.position.mover_store - job.position.opponent_store;
    return interrupted(job, stores - s, stores + s, out.nodes, out.earlier_nodes);
  }
  if (job.json)
    std::cout << add_earlier_nodes(pie_json("solve", job.rules, job.position, out.pie)
                                       .add("nodes", out.nodes)
                                       .add("probes", out.probes)
                                       .add("seconds", job.elapsed()),
                                   out.earlier_nodes)
                     .str()
              << std::endl;
  else
    print_pie(std::cout, job.position, out.pie, out.nodes, out.probes, job.elapsed(),
              out.earlier_nodes);
  return kExitOk;
}

// A full analysis, with its certificate when one is asked for.
int print_analysis(const Job& job, const Report& report) {
  std::optional<Certified> certificate;
  try {
    certificate = certify(job, report.analysis.value);
  } catch (const SearchInterrupted&) {
    return interrupted(job, report.analysis.value, report.analysis.value, report.nodes,
                       report.earlier_nodes);
  }
  if (job.json) {
    JsonObject answer = analysis_json("solve", report);
    if (certificate) answer.add("certificate", certificate_json(*certificate));
    std::cout << answer.str() << "\n";
  } else {
    print_text(std::cout, report);
    if (certificate) print_certificate(std::cout, *certificate, job.db_dir);
  }
  return kExitOk;
}

int solve_value(const Job& job) {
  if (std::optional<Report> stored = stored_report(job.rules, job.position, job.db.get())) {
    stored->seconds = job.elapsed();  // solved before: the whole analysis, at once
    return print_analysis(job, *stored);
  }
  // Each proven bound on a terminal: a big game runs for minutes between answers.
  ValueProgress progress;
  // Under mpirun stderr is a pipe whatever the user's is: lines with each process's rate.
  if (isatty(STDERR_FILENO) || job.over.transport)
    progress = [&](const ParallelValue& v) {
      std::fprintf(stderr, "  value in [%s, %s] after %llu nodes, %.1f s",
                   signed_number(v.lower).c_str(), signed_number(v.upper).c_str(),
                   static_cast<unsigned long long>(v.nodes), job.elapsed());
      if (job.over.stats) {
        std::fprintf(stderr, "; nodes/s by process:");
        for (uint64_t n : job.over.stats->nodes_by_process)
          std::fprintf(stderr, " %.3g", n / job.elapsed());
      }
      std::fprintf(stderr, "\n");
    };
  const CopyWatch copies(job.db.get());
  const ParallelValue pv =
      job.over.transport
          ? value_frontier(job.rules, job.position, job.db.get(), *job.over.transport, &g_stop,
                           job.over.frontier, progress, job.checkpointing(), job.over.stats)
          : value_parallel(job.rules, job.position, job.db.get(), job.table_bytes, &g_stop,
                           progress, job.checkpointing());
  copies.check();
  if (pv.interrupted) return interrupted(job, pv.lower, pv.upper, pv.nodes, pv.earlier_nodes);
  const double seconds = job.elapsed();  // the value's; the certificate's are its own
  std::optional<Certified> certificate;
  try {
    certificate = certify(job, pv.lower);
  } catch (const SearchInterrupted&) {
    return interrupted(job, pv.lower, pv.upper, pv.nodes, pv.earlier_nodes);
  }
  if (job.json) {
    JsonObject answer = value_json("solve", job.rules, job.position, pv.lower, pv.nodes, pv.probes,
                                   seconds, pv.earlier_nodes);
    if (certificate) answer.add("certificate", certificate_json(*certificate));
    std::cout << answer.str() << std::endl;
  } else {
    std::cout << "value: " << signed_number(pv.lower) << " for " << side_name(job.position.mover)
              << " (" << result_word(pv.lower) << "); moves not valued (--value-only)\n";
    print_counts(std::cout, "nodes", pv.nodes, pv.probes, seconds, pv.earlier_nodes);
    if (certificate) print_certificate(std::cout, *certificate, job.db_dir);
  }
  return kExitOk;
}

int solve_full(const Job& job) {
  Progress progress(job);
  Outcome out = analyse_position(
      job.rules, job.position, job.db.get(), job.table_bytes, &g_stop,
      [&](const AnalysisProgress& p) {
        progress.show(std::to_string(p.done) + " of " + std::to_string(p.total) + " moves valued");
      },
      job.checkpointing(), job.over);
  progress.clear();
  if (out.interrupted)
    return interrupted(job, out.lower, out.upper, out.report.nodes, out.report.earlier_nodes);
  out.report.seconds = job.elapsed();
  return print_analysis(job, out.report);
}

// The table per root move (solver/parallel_search.h says why these defaults).
size_t table_bytes(const SolveOptions& o, bool db) {
  return o.table_mb           ? static_cast<size_t>(o.table_mb) << 20
         : db && !o.value_only ? kAnalysisTableBytes
                               : kSearchTableBytes;
}

// The job once its database is open (job.db, null for none).
int solve_job(const SolveOptions& o, Job& job) {
  job.table_bytes = table_bytes(o, job.db != nullptr);
  // The heading comes first, so a long solve shows at once what it works on.
  if (!o.json) {
    print_heading(std::cout, job.title + (o.pie ? ", pie rule" : ""), job.rules, job.position);
    if (job.db)
      std::cout << "database: " << search_database_dir(o.game) << ", layers 1.."
                << job.db->max_seeds() << "\n";
    std::cout.flush();
  }
  if (job.db) job.db_dir = search_database_dir(o.game);
  if (o.pie) {
    // A checkpoint per analysis, in the same directory (named by board).
    CheckpointsFor checkpoints;
    if (!o.checkpoint.empty())
      checkpoints = [&](const Position& q) -> std::shared_ptr<const Checkpointing> {
        std::shared_ptr<Checkpoints> c =
            open_checkpoints(o.checkpoint, o.checkpoint_seconds, job.rules, q, !o.value_only);
        return {c, &c->checkpointing};
      };
    return solve_pie(job, o.value_only, checkpoints);
  }
  if (!o.checkpoint.empty())
    job.checkpoints =
        open_checkpoints(o.checkpoint, o.checkpoint_seconds, job.rules, job.position,
                         !o.value_only);
  if (o.value_only) return solve_value(job);
  return solve_full(job);
}

#ifdef KALAH_MPI
// Under mpirun: process 0 solves as ever, its search spread over every process's threads
// (solver/frontier_search.h), and says at the end what the processes did.
int solve_over_processes(const SolveOptions& o, Job& job) {
  if (o.pie || !o.certificate.empty())
    throw UsageError("--pie and --certificate run in one process: run them without mpirun");
  SearchSetup setup;
  setup.rules = job.rules;
  setup.threads = o.threads;
  setup.stop = &g_stop;
  setup.open = [&]() -> const LeafValues* {
    job.db = search_database(o.game, job.rules);
    // The store answers without searching: a measured search should search.
    if (job.db) job.db->use_answer_store(false);
    return job.db.get();
  };
  // A process's table: what one process's root moves would have.
  setup.table_bytes = [&](const LeafValues* leaves) {
    return table_bytes(o, leaves != nullptr) * job.rules.pits;
  };
  FrontierStats stats;
  job.over.frontier.leaves_per_slot = o.frontier;
  job.over.stats = &stats;
  return search_over_processes(setup, [&](JobTransport& transport) {
    job.over.transport = &transport;
    const int status = solve_job(o, job);
    if (stats.jobs == 0) return status;
    int slots = 0;
    for (int p = 0; p < transport.processes(); ++p) slots += transport.slots(p);
    std::fprintf(stderr,
                 "over %d processes, %d search threads: %llu jobs (%llu cancelled, %llu leaves "
                 "split), %zu boards above the leaves, threads busy %.0f %% of the time, %.2g "
                 "bytes sent a node; nodes by process:",
                 transport.processes(), slots, static_cast<unsigned long long>(stats.jobs),
                 static_cast<unsigned long long>(stats.cancelled),
                 static_cast<unsigned long long>(stats.splits), stats.dag_nodes,
                 100 * stats.busy_seconds / (slots * job.elapsed()),
                 stats.nodes ? static_cast<double>(stats.bytes) / stats.nodes : 0.0);
    for (uint64_t n : stats.nodes_by_process)
      std::fprintf(stderr, " %llu", static_cast<unsigned long long>(n));
    std::fprintf(stderr, "\n");
    return status;
  });
}
#endif

}  // namespace

int cmd_solve(const std::vector<std::string>& args, bool check_only) {
  SolveOptions o;
  po::options_description desc("options");
  add_game_options(desc, o.game);
  desc.add_options()("json", po::bool_switch(&o.json), "print one JSON object on one line")(
      "pie", po::bool_switch(&o.pie),
      "pie rule: after the mover's first turn the opponent may swap sides; prints every "
      "opening and the best one")(
      "value-only", po::bool_switch(&o.value_only),
      "only the position's value: no move values or line, far less work in big games; with "
      "--pie, the best opening exact and the others only shown to be no better")(
      "certificate", po::value(&o.certificate)->value_name("FILE"),
      "also write a proof of the value to FILE, which tools/check_certificate.py verifies "
      "without kalah's code (docs/design.md section 8)")(
      "checkpoint", po::value(&o.checkpoint)->value_name("DIR"),
      "keep the search's progress in DIR (created if missing): the same command after Ctrl-C, "
      "a kill or a reboot continues from it instead of starting again")(
      "checkpoint-every", po::value(&o.checkpoint_seconds)->value_name("SECONDS"),
      "seconds between checkpoints (default 60; longer when saving takes over 2 % of the time)")(
      "tt-mb", po::value(&o.table_mb)->value_name("MB"),
      "transposition table per root move, in MiB (default: 32 with --db, 256 without or with "
      "--value-only)")(
      "frontier", po::value(&o.frontier)->value_name("N"),
      "under mpirun: the top of the tree is expanded until it has N leaves a search thread of "
      "the job (default 16), each searched by the thread that owns it (docs/cluster.md)");
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
  const ThreadLimit limit(o.threads);
  Job job;
  job.json = o.json;
  job.certificate = o.certificate;
  const Game game = resolve_game(o.game);
  job.rules = game.rules;
  job.position = game.position;
  job.title = game.title;
  if (vm.count("frontier")) check_range("--frontier", o.frontier, 1, 1 << 16);
  const int launched = launched_processes();
  if (check_only) return kExitOk;
  // From here on Ctrl-C stops the work and prints what is proven, also while the database opens
  // (writing its decoded copies): the search then stops at once.
  std::signal(SIGINT, on_interrupt);
#ifdef KALAH_MPI
  if (launched > 0) return solve_over_processes(o, job);
#endif
  (void)launched;
  job.db = search_database(o.game, job.rules);
  return solve_job(o, job);
}

}  // namespace kalah
