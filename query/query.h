// query.h: the one path from a question about a position to its answer (docs/design.md §9).
//
// Every front end (`kalah solve`, `query`, `book`, `serve`, `play`, `kgp`, the C++ library and
// the Python module) fills in a Query, calls run() and renders the Outcome: outcome_json here,
// or tools/cli/report.h's text. A query is answered from wherever it is cheapest: the database when
// it holds the position, else the answer store beside it when that holds a full analysis, else a
// search on all cores (or over processes) that ends at the database's layers.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/json.h"
#include "db/database.h"
#include "parallel/leaf_jobs.h"
#include "parallel/search_run.h"
#include "query/certify.h"
#include "query/levels.h"
#include "query/move_choice.h"
#include "query/source.h"
#include "solver/heuristic.h"
#include "solver/openings.h"
#include "store/answer_store.h"

namespace kalah {

// What is asked.
enum class Ask {
  kAnalysis,  // the value, every move's value with its whole turn, a best line
  kValue,     // the value alone (a database or the answer store gives the whole analysis: free)
  kPie,       // the pie rule: every opening's exact value, the best one
  kPieValue,  // the pie rule's value and an opening reaching it; the other openings bounded
  kMove,      // a move to play by the deadline: proven when it can be, else the heuristic's
};

// How far a query has come: reported by the querying thread between null-window tests, and with
// Query::estimate by the estimating thread as the estimate improves (never two calls at once).
struct QueryProgress {
  SearchProgress search;  // the search under way (for the pie rule: of an opening's position)
  // Query::estimate: the heuristic's estimate so far in final margins, within search's bounds.
  std::optional<Estimate> estimate;
  size_t openings_done = 0;        // kPie: openings valued; kPieValue: opening searches begun
  size_t openings = 0;             // the pie rule: openings in all
  uint64_t certified = 0;          // positions of the certificate proven so far, once it is written
  std::optional<MoveChoice> move;  // kMove: the move so far, as it improves
  std::vector<uint64_t> nodes_by_process;  // over processes: the nodes each searched
};

struct Query {
  using Clock = std::chrono::steady_clock;

  // What is asked, of which position.
  Rules rules;
  Position position;
  Ask ask = Ask::kAnalysis;
  // What answers it: a database of the same rules (or none), and the answer store beside it
  // (or none; only read and written with a database).
  const Database* db = nullptr;
  AnswerStore* store = nullptr;
  // Its limits. A stop or the deadline ends the search early: the outcome then holds the bounds
  // proven and why it stopped, never an exception.
  const StopFlag* stop = nullptr;
  std::optional<Clock::time_point> deadline;  // kMove: when the move is due (else at once)
  const Level* level = nullptr;  // kMove: a weaker level chooses near the best (query/levels.h)
  int threads = 0;               // 0: those of the caller's oneTBB arena
  size_t table_mb = 0;           // per root move; 0: table_bytes()'s choice
  // kAnalysis, kValue by search: an estimate at once (query/estimating.h; within 150 ms, or a
  // quarter of the time to the deadline), and better ones while the search proves, in progress
  // reports and in an outcome that stops short.
  bool estimate = false;
  // With estimate: every move's estimate too, also for kValue (a board shows them while the
  // value is searched for; a full analysis always has them).
  bool estimate_every_move = false;
  // With estimate: after its first slice the estimate improves only on cores the search leaves
  // idle (SCHED_IDLE), not on a share of the search's (nice 10): for an estimate nobody watches
  // (a log, a campaign), which would otherwise cost a search on every core about 6 % of its
  // nodes (docs/experiments.md, "The estimate's share").
  bool estimate_when_idle = false;
  // Its sinks.
  std::function<void(const QueryProgress&)> progress;
  std::function<void(const std::string&)> note;  // a line about checkpoints (resumed, saved)
  std::string checkpoint_dir;                    // keep the search's progress there, resume it
  double checkpoint_seconds = 60;
  std::string certificate;  // kAnalysis, kValue: write a proof of the value to this file
  // Where it runs: this process, or the processes of a transport (mpi/search.h): a value or a
  // full analysis only, without certificate.
  JobTransport* transport = nullptr;
  FrontierOptions frontier;
};

// The transposition table per root move: the query's table_mb when given; 32 MiB
// (kAnalysisTableBytes) for a full analysis or the pie rule over a database, whose tree above
// the database is small; else 256 MiB (kSearchTableBytes).
size_t table_bytes(const Query& q);

// About how many nodes a value search (kValue) or a full analysis (kAnalysis) of q's position
// takes: a fit to measured searches of m = 6 (docs/design.md §7.1, "What a search costs"), in
// the seeds the position has above its database's layers and on its board (scaled by 6/m for
// more pits). Within 3x where measured: for warnings, not promises. 0 when the tables answer
// it, and below six pits (every such game solves in minutes).
double expected_nodes(const Query& q);
// A search without a deadline expected to visit this many nodes a byte its database can decode
// into memory decodes it before it starts (Database::decode_in_memory): a byte costs about what
// 0.01 nodes do, and probes of memory save a fifth of every node after (Kalah(6,5) over 22
// seeds): even at 0.05 nodes a byte, three times that for the model's error.
inline constexpr double kDecodeFirstNodesPerByte = 0.15;

struct Outcome {
  // The question, for rendering.
  Rules rules;
  Position position;
  // The answer: exact margin unless stopped (then the bounds proven, and why).
  Source source = Source::kSearch;
  StopReason stopped = StopReason::kNone;
  Bounds margin;                     // on the final margin for the mover
  std::optional<Analysis> analysis;  // kAnalysis; kValue when a database or the store answered
  std::optional<PieAnalysis> pie;    // kPie, kPieValue
  std::optional<MoveChoice> move;    // kMove
  std::optional<Estimate> estimate;  // Query::estimate: the last, in final margins, within margin
  std::optional<Certified> certificate;
  std::optional<FrontierStats> processes;  // a search over processes
  // What it took.
  uint64_t nodes = 0, probes = 0;
  uint64_t earlier_nodes = 0;  // searched by the runs its checkpoints resumed from
  double seconds = 0;          // to the answer (a certificate's time is its own)

  bool complete() const { return stopped == StopReason::kNone; }
};

// The one check that a database serves the rules asked: std::invalid_argument naming both
// ("the database holds m=6 capture=empty ..., not m=4 ...") when `held` is not `asked`.
void check_same_rules(const Rules& held, const Rules& asked);

// Answers q. Throws std::invalid_argument for a query that cannot be asked (the pie rule over
// processes, with a certificate or of a finished game; rules other than the database's) and
// FileError when a decoded copy changed under the answer (db/block_cache.h).
Outcome run(const Query& q);

// The whole analysis of q.position into o when the database or the answer store holds it (what
// run() answers first, without a search); false when neither does.
bool from_tables(const Query& q, Outcome& o);

// The outcome of q when its search could not start (no search slot before its deadline, a
// server closing): stopped for `why`, the bounds every position has, and the estimate that
// `estimate_time` of the heuristic search finds.
Outcome not_started(const Query& q, StopReason why, std::chrono::milliseconds estimate_time);

// The outcome as one JSON object (docs/json.md): analysis, value, pie rule, move, or, when
// stopped, the bounds proven; with the certificate when one was written.
JsonObject outcome_json(const std::string& command, const Outcome& o);

}  // namespace kalah
