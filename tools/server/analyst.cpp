// analyst.cpp: answers of `kalah serve` (tools/server/analyst.h).
#include "tools/server/analyst.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "api/answer.h"
#include "api/estimating.h"
#include "solver/notation.h"
#include "solver/units.h"

namespace kalah {
namespace {

using Clock = std::chrono::steady_clock;

// A whole number in lo..hi, or invalid_argument naming the parameter.
int64_t number(const std::string& name, const std::string& text, int64_t lo, int64_t hi) {
  if (const std::optional<int64_t> v = parse_whole_number(text, lo, hi)) return *v;
  throw std::invalid_argument(name + " must be a whole number " + std::to_string(lo) + ".." +
                              std::to_string(hi) + ", got '" + printable_input(text, 40) + "'");
}

}  // namespace

std::string search_name(const Analyst::Params& params) {
  const auto it = params.find("search");
  if (it == params.end()) return "";
  const std::string& id = it->second;
  const bool ok = !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
  if (!ok)
    throw std::invalid_argument("search must be 1..64 letters, digits, '-' or '_', got '" +
                                printable_input(id, 40) + "'");
  return id;
}

namespace {

// The estimate of an answer that found no search slot in its budget.
constexpr std::chrono::milliseconds kQuickEstimate{100};

// The absolute form: the answer names the side to move, which the relative form leaves out.
std::string cache_key(const Analyst::Request& r) {
  return describe(r.rules) + "|" + format_absolute(r.position, r.rules.pits) +
         (r.value_only ? "|value" : "");
}

}  // namespace

Analyst::Analyst(const AnalystOptions& options)
    : options_(options), searches_(std::max(1, options.max_searches)) {
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

Query Analyst::query(const Request& r) const {
  Query q;
  q.rules = r.rules;
  q.position = r.position;
  q.ask = r.value_only ? Ask::kValue : Ask::kAnalysis;
  q.estimate = true;
  if (const Served* s = served(r.rules)) {
    q.db = s->db.get();
    q.store = s->store.get();
  }
  q.deadline = r.deadline;
  q.table_mb = options_.table_mb;
  return q;
}

Analyst::Request Analyst::prepare(const Params& params, Clock::time_point arrival) const {
  for (const auto& [name, value] : params)
    if (name != "position" && name != "pits" && name != "capture" && name != "end" &&
        name != "remainder" && name != "budget_ms" && name != "value_only" && name != "search" &&
        name != "level")
      throw std::invalid_argument("unknown parameter '" + printable_input(name, 40) + "'");
  const auto get = [&](const char* name, const char* fallback) {
    const auto it = params.find(name);
    return it == params.end() ? std::string(fallback) : it->second;
  };
  if (!params.count("position")) throw std::invalid_argument("the position parameter is missing");
  const int pits =
      params.count("pits") ? static_cast<int>(number("pits", get("pits", ""), 1, kMaxPits)) : 0;
  const ParsedPosition parsed = parse_position(get("position", ""), pits);
  Request r;
  r.rules.pits = parsed.pits;
  r.rules.capture = parse_capture(get("capture", "standard"));
  r.rules.end = parse_end(get("end", "immediate"));
  r.rules.remainder = parse_remainder(get("remainder", "owner"));
  validate(r.rules);
  r.position = parsed.position;
  r.value_only = number("value_only", get("value_only", "0"), 0, 1) == 1;
  r.search_id = search_name(params);
  if (params.count("level")) r.level = &level_named(get("level", ""));
  r.arrival = arrival;
  const auto level_budget = [&] {
    return std::min(options_.max_budget, std::chrono::milliseconds(static_cast<int64_t>(
                                             r.level->seconds * 1000)));
  };
  r.deadline = arrival + (params.count("budget_ms")
                              ? std::chrono::milliseconds(number("budget_ms", get("budget_ms", ""),
                                                                 1, options_.max_budget.count()))
                          : r.level ? level_budget()
                                    : options_.budget);
  return r;
}

bool Analyst::needs_search(const Request& r) const {
  const Served* s = served(r.rules);
  return !s || seeds(r.position.board) > s->db->max_seeds();
}

bool Analyst::cached(const Request& r) {
  std::lock_guard lock(cache_mutex_);
  return cache_.count(cache_key(r)) > 0;
}

std::string Analyst::answer(const Request& r) {
  const std::string key = cache_key(r);
  {
    std::lock_guard lock(cache_mutex_);
    const auto it = cache_.find(key);
    if (it != cache_.end()) {
      lru_.splice(lru_.end(), lru_, it->second);  // most recently used
      std::string json = it->second->second;
      return json.insert(json.size() - 1, ", \"cached\": true");
    }
  }
  bool exact = false;
  std::string json = compute(r, exact);
  if (exact) {
    std::lock_guard lock(cache_mutex_);
    if (!cache_.count(key)) {
      lru_.emplace_back(key, json);
      cache_[key] = std::prev(lru_.end());
      if (lru_.size() > options_.cache_entries) {
        cache_.erase(lru_.front().first);
        lru_.pop_front();
      }
    }
  }
  return json;
}

std::string Analyst::in_search_slot(
    const Request& r, const std::function<std::string(const StopFlag& stop)>& search,
    const std::function<std::string(StopReason why)>& busy) {
  StopFlag stop;
  {
    std::lock_guard lock(running_mutex_);
    if (closed_) return busy(StopReason::kStop);
    running_.insert(&stop);
    if (!r.search_id.empty()) {
      auto named = std::make_shared<Live>();
      named->rules = r.rules;
      named->position = r.position;
      named->stop = &stop;
      named_[r.search_id] = named;
    }
  }
  const struct Unlist {
    Analyst& a;
    const Request& r;
    StopFlag* stop;
    ~Unlist() {
      std::lock_guard lock(a.running_mutex_);
      a.running_.erase(stop);
      const auto it = a.named_.find(r.search_id);
      if (it != a.named_.end() && it->second->stop == stop) a.named_.erase(it);
    }
  } unlist{*this, r, &stop};
  // Waits for a slot in short steps, so that a cancelled search leaves the queue.
  bool started = false;
  while (!stop.raised() && Clock::now() < r.deadline)
    if ((started = searches_.try_acquire_for(std::chrono::milliseconds(50)))) break;
  if (!started) return busy(stop.raised() ? stop.reason() : StopReason::kDeadline);
  struct Slot {
    std::counting_semaphore<1024>& searches;
    ~Slot() { searches.release(); }
  } const slot{searches_};
  return search(stop);
}

std::shared_ptr<Analyst::Live> Analyst::live(const std::string& search_id) {
  std::lock_guard lock(running_mutex_);
  const auto it = named_.find(search_id);
  return it == named_.end() ? nullptr : it->second;
}

std::string Analyst::progress(const std::string& search_id) {
  const std::shared_ptr<Live> named = live(search_id);
  if (!named) return answer_json("serve").add("search", search_id).add("running", false).str();
  std::lock_guard lock(named->mutex);
  return progress_json("serve", named->rules, named->position,
                       named->reported ? &named->so_far : nullptr,
                       named->estimate ? &*named->estimate : nullptr)
      .add("search", search_id)
      .add("seconds", seconds_since(named->start))
      .str();
}

std::string Analyst::cancel(const std::string& search_id) {
  std::lock_guard lock(running_mutex_);
  const auto it = named_.find(search_id);
  if (it != named_.end()) it->second->stop->raise(StopReason::kStop);
  return answer_json("serve").add("search", search_id).add("cancelled", it != named_.end()).str();
}

std::string Analyst::move(const Request& r) {
  Query q = query(r);
  q.ask = Ask::kMove;
  q.level = r.level;
  q.table_mb = 0;  // the value search's own (api/query.h)
  const auto answer = [&](const Query& asked) {
    Outcome o = run(asked);
    o.seconds = seconds_since(r.arrival);
    return outcome_json("serve", o).str();
  };
  if (!needs_search(r)) return answer(q);
  return in_search_slot(
      r,
      [&](const StopFlag& stop) {
        Query in_time = q;
        in_time.stop = &stop;
        return answer(in_time);
      },
      [&](StopReason) {  // no search slot in time: the heuristic's first answer
        StopFlag now;
        now.raise(StopReason::kDeadline);
        Query at_once = q;
        at_once.deadline = Clock::now();
        at_once.stop = &now;
        return answer(at_once);
      });
}

void Analyst::close() {
  std::lock_guard lock(running_mutex_);
  closed_ = true;
  for (StopFlag* stop : running_) stop->raise(StopReason::kStop);
}

std::string Analyst::compute(const Request& r, bool& exact) {
  Query q = query(r);
  // Answered from the database or the answer store: at once, without a search slot.
  if (!needs_search(r) || (q.store && q.store->find(q.position))) {
    q.deadline.reset();
    Outcome o = run(q);
    exact = o.complete();
    if (o.source == Source::kStore) o.seconds = seconds_since(r.arrival);
    return outcome_json("serve", o).str();
  }
  // A search within the budget counted from the request's arrival (waiting included); one that
  // cannot start answers with the bounds every position has.
  const auto bounds = [&](StopReason why) {
    Outcome o;
    o.rules = q.rules;
    o.position = q.position;
    o.stopped = why;
    o.margin = margin_bounds(q.position);
    o.estimate = estimate_for(q, kQuickEstimate);
    o.seconds = seconds_since(r.arrival);
    return outcome_json("serve", o).str();
  };
  return in_search_slot(
      r,
      [&](const StopFlag& stop) {
        q.stop = &stop;
        const std::shared_ptr<Live> named = r.search_id.empty() ? nullptr : live(r.search_id);
        if (named)
          q.progress = [&named](const QueryProgress& p) {
            std::lock_guard lock(named->mutex);
            if (p.search.total) {
              named->so_far = p.search;
              named->reported = true;
            }
            if (p.estimate) named->estimate = p.estimate;
          };
        Outcome o = run(q);
        o.seconds = seconds_since(r.arrival);
        exact = o.complete();
        return outcome_json("serve", o).str();
      },
      bounds);
}

}  // namespace kalah
