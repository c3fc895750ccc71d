// fair_query.h: the fair question through the one query path (query/query.h, docs/design.md §9):
// which starts within a few seeds moved of Kalah(m,n) perfect players draw (parallel/fair.h). run()
// owns the search, the checkpoint log, the certificates, the progress and the JSON; `kalah fair`,
// the library and the Python module only fill in a FairQuery and render its outcome.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/json.h"
#include "db/database.h"
#include "parallel/fair.h"
#include "query/certify.h"

namespace kalah {

// How far a fair run has come: told after each candidate settled and each certificate written.
struct FairProgress {
  size_t settled = 0, candidates = 0;    // candidates settled (a checkpoint's included), of all
  size_t fair = 0;                       // the fair starts found so far
  size_t certified = 0, to_certify = 0;  // certificates written, of the fair starts
  double seconds = 0;
};
// {"command":"fair","settled","candidates","fair","certified","seconds"}: the CLI's --progress
// lines and the library's Progress::json alike (docs/json.md).
JsonObject progress_json(const FairProgress& p);

struct FairQuery {
  Rules rules;
  int seeds = 0;                 // the start the seeds are moved from: Kalah(rules.pits, seeds)
  int moved = 2;                 // seeds moved from it: 1..moved
  bool exact = false;            // every candidate's value, not only its sign (about 9x slower)
  const Database* db = nullptr;  // of the same rules, or none
  int threads = 0;               // 0: those of the caller's oneTBB arena
  size_t table_bytes = size_t{4} << 30;  // the most the threads' one table grows to
  const StopFlag* stop = nullptr;
  std::string checkpoint_dir;   // keep each settled candidate there, resume from it
  std::string certificate_dir;  // prove each fair start's value 0 by a certificate there
  std::function<void(const FairProgress&)> progress;
  std::function<void(const std::string&)> note;  // a line about the checkpoint (resumed, ignored)
};

struct FairOutcome {
  Rules rules;
  int seeds = 0, moved = 0;
  bool exact = false;
  std::vector<FairCandidate> candidates;  // with what is proven of each
  // Asked for: one a fair start, those written before a stop.
  std::optional<std::vector<Certified>> certificates;
  StopReason stopped = StopReason::kNone;
  double seconds = 0;

  bool complete() const { return stopped == StopReason::kNone; }
};

// Answers q: throws std::invalid_argument for a question that cannot be asked (seeds or moved out
// of range, a database of other rules) and FileError when the checkpoint directory cannot be
// written. A stop leaves the candidates not settled yet as they were: the outcome says why.
FairOutcome run(const FairQuery& q);

// `kalah fair --json`'s object (docs/json.md).
JsonObject outcome_json(const FairOutcome& o);

}  // namespace kalah
