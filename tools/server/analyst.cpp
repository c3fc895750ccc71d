// analyst.cpp: answers of `kalah serve` (tools/server/analyst.h).
#include "tools/server/analyst.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "base/units.h"
#include "game/notation.h"
#include "query/json_parts.h"

namespace kalah {
namespace {

using Clock = std::chrono::steady_clock;

// The estimate of an answer that found no search slot in its budget (at most what is left of
// the budget).
constexpr std::chrono::milliseconds kQuickEstimate{100};

// The absolute form: the answer names the side to move, which the relative form leaves out.
std::string cache_key(const ServeRequest& r) {
  return describe(r.rules) + "|" + format_absolute(r.position, r.rules.pits) +
         (r.value_only ? "|value" : "");
}

}  // namespace

Analyst::Analyst(const AnalystOptions& options)
    : options_(options), admission_(options.max_searches), cache_(options.cache_entries) {
  if (!std::filesystem::is_directory(options.dir)) return;
  const std::vector<VariantFiles> variants = list_variants(options.dir);
  for (const auto& v : variants) {
    try {
      databases_.push_back(
          {std::make_unique<Database>(options.dir, v.rules,
                                      Database::search_cache_bytes() / variants.size()),
           options.store ? open_answer_store(options.dir, v.rules) : nullptr});
    } catch (const std::exception& e) {  // a damaged or gapped variant: the others still serve
      std::fprintf(stderr, "kalah serve: not serving m=%d %s: %s\n", v.rules.pits,
                   describe(v.rules).c_str(), e.what());
    }
  }
}

std::vector<std::string> Analyst::databases() const {
  std::vector<std::string> out;
  for (const Served& s : databases_)
    out.push_back("m=" + std::to_string(s.db->rules().pits) + " " + describe(s.db->rules()) +
                  " layers 1.." + std::to_string(s.db->max_seeds()));
  return out;
}

std::vector<std::string> Analyst::stores() const {
  std::vector<std::string> out;
  for (const Served& s : databases_)
    if (s.store) out.push_back(s.store->dir());
  return out;
}

const Analyst::Served* Analyst::served(const Rules& rules) const {
  for (const Served& s : databases_)
    if (s.db->rules() == rules) return &s;
  return nullptr;
}

Query Analyst::query(const ServeRequest& r) const {
  Query q;
  q.rules = r.rules;
  q.position = r.position;
  q.ask = r.value_only ? Ask::kValue : Ask::kAnalysis;
  q.estimate = true;
  q.estimate_every_move = true;  // the board shows each move's while the value is searched for
  if (const Served* s = served(r.rules)) {
    q.db = s->db.get();
    q.store = s->store.get();
  }
  q.deadline = r.deadline;
  q.table_mb = options_.table_mb;
  return q;
}

bool Analyst::needs_search(const ServeRequest& r) const {
  const Served* s = served(r.rules);
  return !s || seeds(r.position.board) > s->db->max_seeds();
}

bool Analyst::cached(const ServeRequest& r) {
  return cache_.contains(cache_key(r));
}

std::string Analyst::analyse(const ServeRequest& r) {
  const std::string key = cache_key(r);
  if (std::optional<std::string> json = cache_.find(key))
    return json->insert(json->size() - 1, ", \"cached\": true");
  const Outcome o = compute(r);
  const std::string json = outcome_json("serve", o).str();
  if (o.complete()) cache_.put(key, json);
  return json;
}

Outcome Analyst::in_search_slot(const ServeRequest& r,
                                const std::function<Outcome(const StopFlag& stop)>& search,
                                const std::function<Outcome(StopReason why)>& busy) {
  StopFlag stop;
  if (r.client) r.client->on_leave([&stop] { stop.raise(StopReason::kStop); });
  const struct Forget {
    ClientLink* client;
    ~Forget() {
      if (client) client->forget();
    }
  } forget{r.client};
  if (!admission_.enter(&stop)) return busy(StopReason::kStop);
  if (!r.search_id.empty()) named_.add(r.search_id, r.rules, r.position, &stop);
  const struct Unlist {
    Analyst& a;
    const ServeRequest& r;
    StopFlag* stop;
    ~Unlist() {
      a.admission_.leave(stop);
      if (!r.search_id.empty()) a.named_.remove(r.search_id, stop);
    }
  } unlist{*this, r, &stop};
  if (!admission_.acquire(stop, r.deadline))
    return busy(stop.raised() ? stop.reason() : StopReason::kDeadline);
  const struct Slot {
    SearchAdmission& admission;
    ~Slot() { admission.release(); }
  } slot{admission_};
  return search(stop);
}

std::string Analyst::move(const ServeRequest& r) {
  Query q = query(r);
  q.ask = Ask::kMove;
  q.level = r.level;
  q.table_mb = 0;  // the value search's own (query/query.h)
  const auto run_timed = [&](const Query& asked) {
    Outcome o = run(asked);
    o.seconds = seconds_since(r.arrival);
    return o;
  };
  if (!needs_search(r)) return outcome_json("serve", run_timed(q)).str();
  const Outcome o = in_search_slot(
      r,
      [&](const StopFlag& stop) {
        Query in_time = q;
        in_time.stop = &stop;
        return run_timed(in_time);
      },
      [&](StopReason) {  // no search slot in time: the heuristic's first answer
        StopFlag now;
        now.raise(StopReason::kDeadline);
        Query at_once = q;
        at_once.deadline = Clock::now();
        at_once.stop = &now;
        return run_timed(at_once);
      });
  return outcome_json("serve", o).str();
}

Outcome Analyst::compute(const ServeRequest& r) {
  Query q = query(r);
  // Answered from the database or the answer store: at once, without a search slot.
  if (!needs_search(r) || (q.store && q.store->find(q.position))) {
    q.deadline.reset();
    Outcome o = run(q);
    if (o.source == Source::kStore) o.seconds = seconds_since(r.arrival);
    return o;
  }
  // A search within the budget counted from the request's arrival (waiting included); one that
  // cannot start answers with the bounds every position has.
  Outcome o = in_search_slot(
      r,
      [&](const StopFlag& stop) {
        q.stop = &stop;
        if (const auto live = r.search_id.empty() ? nullptr : named_.find(r.search_id))
          q.progress = [live](const QueryProgress& p) { live->report(p); };
        return run(q);
      },
      [&](StopReason why) {
        // No slot came within the budget: the heuristic's first iteration at once (a burst of
        // such answers would otherwise share the cores for their estimates past every budget);
        // else at most the budget left.
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(r.deadline - Clock::now());
        return not_started(q, why,
                           why == StopReason::kDeadline
                               ? std::chrono::milliseconds(0)
                               : std::clamp(left, std::chrono::milliseconds(0), kQuickEstimate));
      });
  o.seconds = seconds_since(r.arrival);
  return o;
}

}  // namespace kalah
