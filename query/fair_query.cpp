// fair_query.cpp: run(FairQuery), the fair question's path (query/fair_query.h).
#include "query/fair_query.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "base/threads.h"
#include "base/units.h"
#include "game/notation.h"
#include "game/rules.h"
#include "query/json_parts.h"
#include "query/query.h"
#include "store/checkpoint.h"
#include "store/fair_checkpoint.h"

namespace kalah {
namespace {

void check(const FairQuery& q) {
  validate(q.rules);
  if (q.db) check_same_rules(q.db->rules(), q.rules);
}

// The stop's reason, kStop when the flag was lowered again: the run ended short either way.
StopReason why_short(const StopFlag* stop) {
  return stop && stop->raised() ? stop->reason() : StopReason::kStop;
}

// Proves each fair start's margin 0 into a certificate in q.certificate_dir, the fair starts
// shared out over the arena's threads (each proof runs on one); those written before a stop are
// kept.
void certify_fair(const FairQuery& q, FairProgress& now, FairOutcome& o) {
  std::vector<const FairCandidate*> fair;
  for (const FairCandidate& c : o.candidates)
    if (c.fair()) fair.push_back(&c);
  std::vector<Certified> written(fair.size());
  std::mutex report;
  now.to_certify = fair.size();
  try {
    tbb::parallel_for(size_t{0}, fair.size(), [&](size_t i) {
      std::string name = format_absolute(fair[i]->position, q.rules.pits);
      std::replace(name.begin(), name.end(), ',', '-');
      written[i] =
          certify(q.certificate_dir + "/fair-" + variant_name(q.rules) + "-" + name + ".cert",
                  q.rules, fair[i]->position, 0, q.db, q.stop);
      const std::lock_guard lock(report);
      ++now.certified;
      if (q.progress) q.progress(now);
    });
  } catch (const SearchInterrupted& e) {
    o.stopped = e.reason;
  }
  for (Certified& c : written)
    if (!c.file.empty()) o.certificates->push_back(std::move(c));
}

FairOutcome run_here(const FairQuery& q, int threads) {
  const auto t0 = std::chrono::steady_clock::now();
  FairOutcome o;
  o.rules = q.rules;
  o.seeds = q.seeds;
  o.moved = q.moved;
  o.exact = q.exact;
  o.candidates = fair_candidates(q.rules.pits, q.seeds, q.moved);
  // Made (or refused) before the search, not after it.
  if (!q.certificate_dir.empty()) make_checkpoint_dir(q.certificate_dir);
  std::unique_ptr<FairCheckpoint> log;
  if (!q.checkpoint_dir.empty()) {
    log = std::make_unique<FairCheckpoint>(q.checkpoint_dir, q.rules, q.seeds, q.moved,
                                           o.candidates, q.note);
    if (log->resumed() && q.note)
      q.note(log->path() + ": resumed " + std::to_string(log->resumed()) + " candidates");
  }
  const FairSummary resumed = summarize(o.candidates, q.rules.pits, q.exact);
  FairProgress now{resumed.settled, o.candidates.size(), resumed.fair.size()};
  FairSearch s;
  s.rules = q.rules;
  s.leaves = q.db;
  s.threads = threads;
  s.table_bytes = q.table_bytes;
  s.stop = q.stop;
  s.exact = q.exact;
  s.on_settled = [&](size_t i) {
    if (log) log->record(o.candidates[i]);
    ++now.settled;
    now.fair += o.candidates[i].fair();
    now.seconds = seconds_since(t0);
    if (q.progress) q.progress(now);
  };
  if (!q.certificate_dir.empty()) o.certificates.emplace();
  if (settle_candidates(s, o.candidates) < o.candidates.size())
    o.stopped = why_short(q.stop);
  else if (o.certificates)
    certify_fair(q, now, o);
  o.seconds = seconds_since(t0);
  return o;
}

}  // namespace

JsonObject progress_json(const FairProgress& p) {
  JsonObject out;
  out.add("command", "fair").add("settled", p.settled).add("candidates", p.candidates);
  out.add("fair", p.fair);
  if (p.to_certify) out.add("certified", p.certified);
  return out.add("seconds", p.seconds);
}

FairOutcome run(const FairQuery& q) {
  check(q);
  if (q.threads <= 0) return run_here(q, tbb::this_task_arena::max_concurrency());
  tbb::task_arena arena(thread_count(q.threads));  // the call's own: calls do not limit others
  return arena.execute([&] { return run_here(q, thread_count(q.threads)); });
}

JsonObject outcome_json(const FairOutcome& o) {
  const FairSummary sum = summarize(o.candidates, o.rules.pits, o.exact);
  JsonObject counts;
  for (const auto& [key, count] : sum.values) counts.add(key, count);
  JsonObject out = variant_json("fair", o.rules);
  out.add("seeds", o.seeds)
      .add("moved", o.moved)
      .add("exact", o.exact)
      .add("candidates", o.candidates.size())
      .add("settled", sum.settled)
      .add("fair", sum.fair)
      .add("below", sum.below)
      .add("values", counts);
  if (o.certificates) {
    std::vector<JsonObject> files;
    for (const Certified& c : *o.certificates) files.push_back(certificate_json(c));
    out.add("certificates", files);
  }
  return out.add("seconds", o.seconds);
}

}  // namespace kalah
