// analyse.h: a position's full analysis from wherever it is cheapest, the one path behind
// `kalah solve`, `kalah query`, `kalah serve`, the library and the Python module.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>

#include "api/answer.h"
#include "db/database.h"
#include "solver/frontier_search.h"
#include "solver/openings.h"
#include "solver/parallel_search.h"

namespace kalah {

// How an analysis ended: a complete report, or, when `stop` ended its search first, the bounds
// proven on the final margin for the mover (report.nodes and seconds still count the work).
struct Outcome {
  Report report;
  bool interrupted = false;
  int lower = 0, upper = 0;
};

// From the database when it holds the position (source "database"), else from its answer store
// (source "store"), else by a search on all cores that ends at the database's layers (source
// "search"; db may be null), whose exact answer is then stored. Throws
// DatabaseError when a decoded copy changed under the answer (db/block_cache.h). `table_bytes` is
// per root move (kAnalysisTableBytes or kSearchTableBytes, solver/parallel_search.h). A search
// resumes from and saves to `checkpoint` when given. With a transport, the search is spread over
// its processes (solver/frontier_search.h; `progress` is not called).
struct OverProcesses {
  JobTransport* transport = nullptr;
  FrontierOptions frontier;
  FrontierStats* stats = nullptr;  // the search's counts, if given
};
Outcome analyse_position(const Rules& rules, const Position& p, const Database* db,
                         size_t table_bytes, const std::atomic<bool>* stop = nullptr,
                         const MoveProgress& progress = {},
                         const Checkpointing* checkpoint = nullptr,
                         const OverProcesses& over = {});

// The analysis the database's answer store holds for p (db/answer_store.h), source "store";
// nothing without a store, for a position the database holds, or when none is stored.
std::optional<Report> stored_report(const Rules& rules, const Position& p, const Database* db);

// The pie rule at p (solver/openings.h): every opening valued exactly by full analyses on all
// cores ending at db, of p and of the positions its extra turns lead to. `interrupted` when
// `stop` ended it first (no bounds). `progress`, if given, is called with the number of openings
// valued so far and the analysis under way. `checkpoints`, if given, gives each analysis its
// own (null for none; the pointer keeps it alive): a rerun resumes each, the first from a full
// analysis of p that kept one.
using PieProgress = std::function<void(size_t valued, const AnalysisProgress& now)>;
using CheckpointsFor = std::function<std::shared_ptr<const Checkpointing>(const Position&)>;
struct PieOutcome {
  PieAnalysis pie;
  uint64_t nodes = 0, probes = 0;
  uint64_t earlier_nodes = 0;  // searched by the runs its analyses' checkpoints resumed from
  bool interrupted = false;
};
PieOutcome pie_position(const Rules& rules, const Position& p, const Database* db,
                        size_t table_bytes, const std::atomic<bool>* stop = nullptr,
                        const PieProgress& progress = {},
                        const CheckpointsFor& checkpoints = {});

// The pie rule's value and best opening alone (solver/openings.h's pie_value): null-window tests
// on all cores, each opening's over a table of its own while it is searched; the other openings
// get bounds. Arguments as pie_position's; `progress` is called with the number of opening
// searches begun before each (an opening may be searched in several rounds).
using PieValueProgress = std::function<void(size_t searched)>;
PieOutcome pie_value_position(const Rules& rules, const Position& p, const Database* db,
                              size_t table_bytes, const std::atomic<bool>* stop = nullptr,
                              const PieValueProgress& progress = {},
                              const CheckpointsFor& checkpoints = {});

// The answer of an Outcome: analysis_json, or interrupted_json with the bounds.
JsonObject outcome_json(const std::string& command, const Outcome& o);

}  // namespace kalah
