// analyst.cpp: answers of `kalah serve` (tools/analyst.h).
#include "tools/analyst.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "api/analyse.h"
#include "api/deadline.h"
#include "api/move_choice.h"
#include "solver/notation.h"
#include "solver/units.h"

namespace kalah {
namespace {

using Clock = std::chrono::steady_clock;

// A whole number in lo..hi, or invalid_argument naming the parameter.
int64_t number(const std::string& name, const std::string& text, int64_t lo, int64_t hi) {
  size_t used = 0;
  int64_t v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || v < lo || v > hi)
    throw std::invalid_argument(name + " must be a whole number " + std::to_string(lo) + ".." +
                                std::to_string(hi) + ", got '" + printable_input(text, 40) + "'");
  return v;
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
      databases_.push_back(std::make_unique<Database>(
          options.dir, v.rules, Database::search_cache_bytes() / variants.size()));
    } catch (const std::exception& e) {  // a damaged or gapped variant: the others still serve
      std::fprintf(stderr, "kalah serve: not serving m=%d %s: %s\n", v.rules.pits,
                   describe(v.rules).c_str(), e.what());
    }
  }
}

std::vector<std::string> Analyst::databases() const {
  std::vector<std::string> out;
  for (const auto& db : databases_)
    out.push_back("m=" + std::to_string(db->rules().pits) + " " + describe(db->rules()) +
                  " layers 1.." + std::to_string(db->max_seeds()));
  return out;
}

const Database* Analyst::database(const Rules& rules) const {
  for (const auto& db : databases_)
    if (db->rules() == rules) return db.get();
  return nullptr;
}

Analyst::Request Analyst::prepare(const Params& params, Clock::time_point arrival) const {
  for (const auto& [name, value] : params)
    if (name != "position" && name != "pits" && name != "capture" && name != "end" &&
        name != "remainder" && name != "budget_ms" && name != "value_only" && name != "search")
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
  r.arrival = arrival;
  r.deadline = arrival + (params.count("budget_ms")
                              ? std::chrono::milliseconds(number("budget_ms", get("budget_ms", ""),
                                                                 1, options_.max_budget.count()))
                              : options_.budget);
  return r;
}

bool Analyst::needs_search(const Request& r) const {
  const Database* db = database(r.rules);
  return !db || seeds(r.position.board) > db->max_seeds();
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
    const Request& r, const std::function<std::string(std::atomic<bool>& stop)>& search,
    const std::function<std::string()>& busy) {
  std::atomic<bool> stop{false};
  {
    std::lock_guard lock(running_mutex_);
    if (closed_) return busy();
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
    std::atomic<bool>* stop;
    ~Unlist() {
      std::lock_guard lock(a.running_mutex_);
      a.running_.erase(stop);
      const auto it = a.named_.find(r.search_id);
      if (it != a.named_.end() && it->second->stop == stop) a.named_.erase(it);
    }
  } unlist{*this, r, &stop};
  // Waits for a slot in short steps, so that a cancelled search leaves the queue.
  bool started = false;
  while (!stop && Clock::now() < r.deadline)
    if ((started = searches_.try_acquire_for(std::chrono::milliseconds(50)))) break;
  if (!started) return busy();
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
                       named->reported ? &named->so_far : nullptr)
      .add("search", search_id)
      .str();
}

std::string Analyst::cancel(const std::string& search_id) {
  std::lock_guard lock(running_mutex_);
  const auto it = named_.find(search_id);
  if (it != named_.end()) *it->second->stop = true;
  return answer_json("serve").add("search", search_id).add("cancelled", it != named_.end()).str();
}

std::string Analyst::move(const Request& r) {
  const Database* db = database(r.rules);
  const auto seconds_left = [&] {
    return std::chrono::duration<double>(r.deadline - Clock::now()).count();
  };
  const auto answer = [&](const MoveChoice& c) {
    return move_json("serve", r.rules, r.position, c, seconds_since(r.arrival)).str();
  };
  if (!needs_search(r)) return answer(choose_move(r.rules, r.position, db, 0));
  const std::atomic<bool> now{true};  // no search slot in time: the heuristic's first answer
  return in_search_slot(
      r,
      [&](std::atomic<bool>& stop) {
        return answer(choose_move(r.rules, r.position, db, seconds_left(), &stop));
      },
      [&] { return answer(choose_move(r.rules, r.position, db, 0, &now)); });
}

void Analyst::close() {
  std::lock_guard lock(running_mutex_);
  closed_ = true;
  for (std::atomic<bool>* stop : running_) *stop = true;
}

std::string Analyst::compute(const Request& r, bool& exact) {
  const Database* db = database(r.rules);
  const Rules& rules = r.rules;
  const Position& p = r.position;
  if (!needs_search(r)) {
    exact = true;
    return analysis_json("serve", analyse_position(rules, p, db, options_.table_bytes).report)
        .str();
  }
  if (std::optional<Report> stored = stored_report(rules, p, db)) {  // solved before
    exact = true;
    stored->seconds = seconds_since(r.arrival);
    return analysis_json("serve", *stored).str();
  }
  // Within the budget counted from the request's arrival (waiting included); one that cannot
  // start answers with the bounds every position has.
  const auto bounds = [&] {
    const int stores = p.mover_store - p.opponent_store, s = seeds(p.board);
    return interrupted_json("serve", rules, p, stores - s, stores + s, 0, seconds_since(r.arrival))
        .str();
  };
  return in_search_slot(
      r, [&](std::atomic<bool>& stop) { return search(r, db, stop, exact); }, bounds);
}

std::string Analyst::search(const Request& r, const Database* db, std::atomic<bool>& stop,
                            bool& exact) {
  const Rules& rules = r.rules;
  const Position& p = r.position;
  if (r.value_only) {
    const CopyWatch copies(db);
    ParallelValue v;
    {
      const Deadline deadline(r.deadline, stop);
      v = value_parallel(rules, p, db, options_.table_bytes, &stop);
    }
    copies.check();
    exact = !v.interrupted;
    const double seconds = seconds_since(r.arrival);
    return (v.interrupted ? interrupted_json("serve", rules, p, v.lower, v.upper, v.nodes, seconds)
                          : value_json("serve", rules, p, v.lower, v.nodes, v.probes, seconds))
        .str();
  }
  Outcome out;
  {
    const Deadline deadline(r.deadline, stop);
    const std::shared_ptr<Live> named = r.search_id.empty() ? nullptr : live(r.search_id);
    MoveProgress report;
    if (named)
      report = [&named](const AnalysisProgress& so_far) {
        std::lock_guard lock(named->mutex);
        named->so_far = so_far;
        named->reported = true;
      };
    out = analyse_position(rules, p, db, options_.table_bytes, &stop, report);
  }
  out.report.seconds = seconds_since(r.arrival);
  exact = !out.interrupted;
  return outcome_json("serve", out).str();
}

}  // namespace kalah
