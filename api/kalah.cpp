// kalah.cpp: the public API (include/kalah/kalah.h) over the query path (query/query.h).
#include "kalah/kalah.h"

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "api/facade.h"
#include "base/deadline.h"
#include "base/threads.h"
#include "base/units.h"
#include "db/database.h"
#include "db/file_names.h"
#include "game/notation.h"
#include "query/fair_query.h"
#include "query/json_parts.h"
#include "query/query.h"

namespace kalah::api {
namespace {

// Whether `timeout` (seconds) limits a call: not when 0 or infinite. Throws
// std::invalid_argument when it is negative or NaN.
bool is_timed(double timeout) {
  if (!(timeout >= 0))  // NaN too
    throw std::invalid_argument(
        "timeout must be a number of seconds, 0 or infinity for none; got " +
        std::to_string(timeout));
  return timeout > 0 && !std::isinf(timeout);
}

// The caller's flag, looked at every 20 ms, and the timeout raise `halt` while `watch` lives;
// it stays empty when there is neither.
void watch_stop(const std::atomic<bool>* stop, double timeout, StopFlag& halt,
                std::optional<Deadline>& watch) {
  if (stop || is_timed(timeout))
    watch.emplace(
        is_timed(timeout) ? seconds_from_now(timeout) : Deadline::Clock::time_point::max(), halt,
        [stop] { return stop && stop->load() ? StopReason::kStop : StopReason::kNone; });
}

Analysis to_public(const std::string& command, const Outcome& o) {
  const int m = o.rules.pits;
  Analysis a;
  a.position = format_relative(o.position, m);
  a.absolute = format_absolute(o.position, m);
  a.value = a.lower = o.margin.lower;
  a.upper = o.margin.upper;
  a.exact = o.complete();
  a.stopped = to_string(o.stopped);
  a.result = a.exact ? result_word(a.value) : "";
  a.finished = is_terminal(o.rules, o.position.board);
  if (o.analysis && a.exact) {
    for (const MoveShown& mv : moves_shown(o.rules, o.position, *o.analysis))
      a.moves.push_back({mv.pit, mv.value, mv.result, mv.turn, mv.position, mv.absolute});
    a.best_line = format_turns(o.analysis->best_line, o.position.mover);
  }
  if (o.pie && a.exact) {
    for (const PieOpening& opening : o.pie->openings)
      a.openings.push_back(
          {format_turn(opening.turn, o.position.mover), opening.value, opening.swapped});
    a.best_opening = a.openings[o.pie->best].turn;
  }
  if (o.estimate && !a.exact) {
    a.estimate = o.estimate->value;
    a.estimate_depth = o.estimate->depth;
    a.estimate_line = format_turns(o.estimate->line, o.position.mover);
  }
  a.source = a.exact ? to_string(o.source) : "bounds";
  a.nodes = o.nodes;
  a.probes = o.probes;
  a.seconds = o.seconds;
  a.json = outcome_json(command, o).str();
  return a;
}

// The answer to `options` for p: on options.threads threads (an arena of this call's own),
// stopped by *stop or by the timeout, either way with the bounds proven.
Analysis run_query(const std::string& command, const kalah::Rules& r, const kalah::Position& p,
                   const kalah::Database* db, AnswerStore* store, const std::atomic<bool>* stop,
                   const Options& o) {
  const bool timed = is_timed(o.timeout);
  Query q;
  q.rules = r;
  q.position = p;
  q.ask = o.ask == Question::pie     ? Ask::kPie
          : o.ask == Question::value ? Ask::kValue
                                     : Ask::kAnalysis;
  q.db = db;
  q.store = store;
  q.threads = thread_count(o.threads);
  q.estimate = o.progress || timed;
  const auto t0 = std::chrono::steady_clock::now();
  if (o.progress)
    q.progress = [&](const QueryProgress& now) {
      Progress p;
      p.seconds = seconds_since(t0);
      p.nodes = now.search.nodes;
      p.lower = now.search.margin.lower;
      p.upper = now.search.margin.upper;
      p.done = now.search.done;
      p.total = now.search.total;
      if (now.estimate) {
        p.estimate = now.estimate->value;
        p.estimate_depth = now.estimate->depth;
      }
      p.json = progress_json(command, r, q.position, &now.search,
                             now.estimate ? &*now.estimate : nullptr)
                   .add("nodes", p.nodes)
                   .add("seconds", p.seconds)
                   .str();
      o.progress(p);
    };
  StopFlag halt;
  std::optional<Deadline> watch;
  watch_stop(stop, o.timeout, halt, watch);
  if (watch) q.stop = &halt;
  return rethrowing([&] { return to_public(command, run(q)); });
}

// Every pit count the directory holds for rules (pits ignored): there must be exactly one.
int only_pit_count(const std::string& directory, const Rules& rules) {
  const kalah::Rules r = internal_rules({6, rules.capture, rules.end, rules.remainder});
  const std::vector<VariantFiles> variants = rethrowing([&] { return list_variants(directory); });
  std::vector<int> found;
  for (const VariantFiles& v : variants)
    if (v.rules.capture == r.capture && v.rules.end == r.end && v.rules.remainder == r.remainder)
      found.push_back(v.rules.pits);
  if (found.size() != 1)
    throw std::invalid_argument(
        directory + ": " +
        (found.empty() ? "no layer files for " + describe(r) + "; " + describe_variants(variants)
                       : "layers of several pit counts for " + describe(r) + "; give pits"));
  return found[0];
}

}  // namespace

std::string version() {
  return KALAH_VERSION_STRING;
}

std::string default_directory() {
  return default_database_dir();
}

struct Database::Impl {
  std::unique_ptr<kalah::Database> db;
  std::unique_ptr<AnswerStore> store;
  uint64_t copy_epoch = 0;  // when it was opened (check_copies)

  Analysis analyse(const std::string& command, const kalah::Rules& rules, const kalah::Position& p,
                   const std::atomic<bool>* stop, const Options& options) const {
    return run_query(command, rules, p, db.get(), store.get(), stop, options);
  }
};

Database::Database(const std::string& directory, const Rules& rules, size_t cache_mb, bool store)
    : impl_(std::make_unique<Impl>()) {
  Rules wanted = rules;
  if (directory.empty())
    throw std::invalid_argument(
        "no database directory given, and no default one (KALAH_DB, XDG_CACHE_HOME and HOME give "
        "none)");
  if (!std::filesystem::is_directory(directory))
    throw std::invalid_argument(directory + ": no such database directory");
  if (wanted.pits == 0) wanted.pits = only_pit_count(directory, rules);
  const kalah::Rules r = internal_rules(wanted);
  impl_->db = rethrowing([&] {
    return std::make_unique<kalah::Database>(
        directory, r, cache_mb ? cache_mb << 20 : kalah::Database::search_cache_bytes());
  });
  if (store) impl_->store = open_answer_store(directory, r);
  impl_->copy_epoch = impl_->db->copy_epoch();
}

Database::~Database() = default;
Database::Database(Database&&) noexcept = default;
Database& Database::operator=(Database&&) noexcept = default;

Rules Database::rules() const {
  return public_rules(impl_->db->rules());
}

int Database::max_seeds() const {
  return impl_->db->max_seeds();
}

std::optional<int> Database::probe(const std::string& position) const {
  const kalah::Rules& rules = impl_->db->rules();
  const kalah::Position p = parse_position(position, rules.pits).position;
  const std::optional<int> v = rethrowing([&] {
    const uint64_t epoch = impl_->db->copy_epoch();
    const std::optional<int> value = impl_->db->probe(p.board);
    // The copies, and of the layer files only the one read (an fstat each).
    impl_->db->check_copies(epoch, kalah::seeds(p.board));
    return value;
  });
  if (!v) return std::nullopt;
  return final_margin(p, *v);
}

std::optional<int> Database::probe(const Position& position) const {
  check_same_rules(impl_->db->rules(), PositionAccess::rules(position));
  const uint64_t epoch = impl_->db->copy_epoch();
  const std::optional<int> v = probe_board(position.board());
  if (!v) return std::nullopt;
  // The layer it read, not written to since it was opened (one fstat): a root call's check.
  rethrowing([&] {
    impl_->db->check_layer(epoch, kalah::seeds(PositionAccess::internal(position).board));
    return 0;
  });
  return position.mover_store() - position.opponent_store() + *v;
}

std::optional<int> Database::probe_board(const Board& board) const {
  kalah::Board b;
  static_assert(sizeof board.pits == sizeof b.pits);
  std::memcpy(b.pits.data(), board.pits, sizeof board.pits);
  const int m = impl_->db->rules().pits;
  if (row_seeds(b, 2 * m, 2 * (kMaxPits - m)) != 0)
    throw std::invalid_argument("a board of " + std::to_string(m) +
                                " pits a row has seeds beyond pit " + std::to_string(2 * m));
  if (seeds(b) > impl_->db->max_seeds()) return std::nullopt;
  return rethrowing([&] { return impl_->db->value(b); });
}

void Database::check_copies() const {
  rethrowing([&] {
    impl_->db->check_copies(impl_->copy_epoch);
    return 0;
  });
}

Analysis Database::analyse(const std::string& position, const std::atomic<bool>* stop,
                           const Options& options) const {
  const kalah::Rules& rules = impl_->db->rules();
  const kalah::Position p = parse_position(position, rules.pits).position;
  return impl_->analyse("query", rules, p, stop, options);
}

Analysis Database::analyse(const Position& position, const std::atomic<bool>* stop,
                           const Options& options) const {
  check_same_rules(impl_->db->rules(), PositionAccess::rules(position));
  return impl_->analyse("query", impl_->db->rules(), PositionAccess::internal(position), stop,
                        options);
}

Analysis analyse(const Rules& rules, const std::string& position, const Database* db,
                 const std::atomic<bool>* stop, const Options& options) {
  const Position q = Position::parse(position, rules);
  const kalah::Rules r = PositionAccess::rules(q);
  const kalah::Position p = PositionAccess::internal(q);
  if (db) {
    check_same_rules(db->impl_->db->rules(), r);
    return db->impl_->analyse("solve", r, p, stop, options);
  }
  return run_query("solve", r, p, nullptr, nullptr, stop, options);
}

Analysis solve(const Rules& rules, int seeds, const Database* db, const std::atomic<bool>* stop,
               const Options& options) {
  const kalah::Rules r = internal_rules(rules);  // pits = 0 is refused here
  return analyse(rules, format_relative(start_position(r.pits, seeds), r.pits), db, stop, options);
}

std::string fair(const Rules& rules, int seeds, const Database* db, const std::atomic<bool>* stop,
                 const FairOptions& o) {
  FairQuery q;
  q.rules = internal_rules(rules);
  q.seeds = seeds;
  q.moved = o.moved;
  q.exact = o.exact;
  q.db = db ? db->impl_->db.get() : nullptr;
  q.threads = thread_count(o.threads);
  q.checkpoint_dir = o.checkpoint;
  q.certificate_dir = o.certificates;
  StopFlag halt;
  std::optional<Deadline> watch;
  watch_stop(stop, o.timeout, halt, watch);
  q.stop = &halt;
  if (o.progress)
    q.progress = [&](const FairProgress& now) {
      Progress p;
      p.seconds = now.seconds;
      p.done = static_cast<int>(now.to_certify ? now.certified : now.settled);
      p.total = static_cast<int>(now.to_certify ? now.to_certify : now.candidates);
      p.json = progress_json(now).str();
      o.progress(p);
    };
  return rethrowing([&] { return outcome_json(run(q)).str(); });
}

}  // namespace kalah::api
