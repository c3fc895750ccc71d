// kalah.cpp: the public API (include/kalah/kalah.h) over the solver and database libraries.
#include "kalah/kalah.h"

#include <tbb/task_arena.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "api/analyse.h"
#include "api/deadline.h"
#include "db/database.h"
#include "db/file_names.h"
#include "solver/notation.h"
#include "solver/threads.h"
#include "solver/units.h"

namespace kalah::api {
namespace {

kalah::Rules internal_rules(const Rules& r) {
  kalah::Rules rules;
  rules.pits = r.pits;
  rules.capture = parse_capture(r.capture);
  rules.end = parse_end(r.end);
  rules.remainder = parse_remainder(r.remainder);
  validate(rules);
  return rules;
}

Rules public_rules(const kalah::Rules& r) {
  return {r.pits, to_string(r.capture), to_string(r.end), to_string(r.remainder)};
}

// A database error is a runtime_error whose type is private to the library.
template <class F>
auto rethrowing(F&& f) {
  try {
    return f();
  } catch (const DatabaseError& e) {
    throw std::runtime_error(e.what());
  }
}

Analysis to_public(const std::string& command, const Report& r) {
  const int m = r.rules.pits;
  Analysis a;
  a.position = format_relative(r.position, m);
  a.absolute = format_absolute(r.position, m);
  a.value = a.lower = a.upper = r.analysis.value;
  a.result = result_word(a.value);
  a.finished = r.analysis.finished;
  for (const MoveReport& mv : r.analysis.moves) {
    const kalah::Position next = apply(r.rules, r.position, mv.pit);
    a.moves.push_back({mv.pit + 1, mv.value, result_word(mv.value), format_turn(mv.turn),
                       format_relative(next, m), format_absolute(next, m)});
  }
  for (const auto& turn : r.analysis.best_line) a.best_line.push_back(format_turn(turn));
  a.source = r.source;
  a.nodes = r.nodes;
  a.probes = r.probes;
  a.seconds = r.seconds;
  a.json = analysis_json(command, r).str();
  return a;
}

// A position of other rules than the database's: invalid_argument naming both.
void check_same_rules(const kalah::Rules& held, const kalah::Rules& r) {
  if (!(held == r))
    throw std::invalid_argument("the database holds m=" + std::to_string(held.pits) + " " +
                                describe(held) + ", not m=" + std::to_string(r.pits) + " " +
                                describe(r));
}

Analysis heading(const kalah::Rules& r, const kalah::Position& p, int value) {
  Analysis a;
  a.position = format_relative(p, r.pits);
  a.absolute = format_absolute(p, r.pits);
  a.value = a.lower = a.upper = value;
  a.result = result_word(value);
  a.finished = is_terminal(r, p.board);
  return a;
}

// What a timeout leaves: the bounds proven.
Analysis bounds(const std::string& command, const kalah::Rules& r, const kalah::Position& p,
                int lower, int upper, uint64_t nodes, double seconds) {
  Analysis a = heading(r, p, lower);
  a.exact = false;
  a.upper = upper;
  a.result.clear();
  a.source = "bounds";
  a.nodes = nodes;
  a.seconds = seconds;
  a.json = interrupted_json(command, r, p, lower, upper, nodes, seconds).str();
  return a;
}

Analysis value_only(const std::string& command, const kalah::Rules& r, const kalah::Position& p,
                    const kalah::Database* db, const std::atomic<bool>* stop) {
  const auto t0 = std::chrono::steady_clock::now();
  const CopyWatch copies(db);
  std::optional<int> known;  // from the database, else from the answer store
  const bool held = db && seeds(p.board) <= db->max_seeds();
  if (held) {
    known = final_margin(p, *db->probe(p.board));
  } else if (std::optional<Report> stored = stored_report(r, p, db)) {
    known = stored->analysis.value;
  }
  if (known) {
    copies.check();
    Analysis a = heading(r, p, *known);
    a.source = held ? "database" : "store";
    a.nodes = a.probes = held ? 1 : 0;
    a.seconds = seconds_since(t0);
    a.json = value_json(command, r, p, a.value, a.nodes, a.probes, a.seconds).str();
    return a;
  }
  const ParallelValue pv = value_parallel(r, p, db, kSearchTableBytes, stop);
  copies.check();
  if (pv.interrupted) return bounds(command, r, p, pv.lower, pv.upper, pv.nodes, seconds_since(t0));
  Analysis a = heading(r, p, pv.lower);
  a.source = "search";
  a.nodes = pv.nodes;
  a.probes = pv.probes;
  a.seconds = seconds_since(t0);
  a.json = value_json(command, r, p, a.value, a.nodes, a.probes, a.seconds).str();
  return a;
}

Analysis pie(const std::string& command, const kalah::Rules& r, const kalah::Position& p,
             const kalah::Database* db, size_t table_bytes, const std::atomic<bool>* stop) {
  const auto t0 = std::chrono::steady_clock::now();
  const PieOutcome out = pie_position(r, p, db, table_bytes, stop);
  if (out.interrupted) {
    const int stores = p.mover_store - p.opponent_store, s = seeds(p.board);
    return bounds(command, r, p, stores - s, stores + s, out.nodes, seconds_since(t0));
  }
  Analysis a = heading(r, p, out.pie.value);
  for (const PieOpening& o : out.pie.openings)
    a.openings.push_back({format_turn(o.turn), o.value, o.swapped});
  a.best_opening = a.openings[out.pie.best].turn;
  a.source = "search";
  a.nodes = out.nodes;
  a.probes = out.probes;
  a.seconds = seconds_since(t0);
  a.json = pie_json(command, r, p, out.pie)
               .add("nodes", a.nodes)
               .add("probes", a.probes)
               .add("seconds", a.seconds)
               .str();
  return a;
}

// The answer to `options` for p: on options.threads threads (an arena of this call's own),
// stopped by *stop (Interrupted, with the bounds in its message) or by the timeout (the bounds).
Analysis answer(const std::string& command, const kalah::Rules& r, const kalah::Position& p,
                const kalah::Database* db, size_t table_bytes, const std::atomic<bool>* stop,
                const Options& o) {
  if (o.value_only && o.pie) throw std::invalid_argument("give pie or value_only, not both");
  if (!(o.timeout >= 0) || std::isinf(o.timeout))
    throw std::invalid_argument("timeout must be 0 (none) or a number of seconds");
  std::atomic<bool> timed_out{false};
  std::optional<Deadline> deadline;
  const std::atomic<bool>* watched = stop;
  if (o.timeout > 0) {
    deadline.emplace(o.timeout, timed_out, stop);  // raised by the caller's stop too
    watched = &timed_out;
  }
  tbb::task_arena arena(thread_count(o.threads));
  Analysis a = arena.execute([&] {
    return rethrowing([&] {
      if (o.pie) return pie(command, r, p, db, table_bytes, watched);
      if (o.value_only) return value_only(command, r, p, db, watched);
      const Outcome out = analyse_position(r, p, db, table_bytes, watched);
      if (out.interrupted)
        return bounds(command, r, p, out.lower, out.upper, out.report.nodes, out.report.seconds);
      return to_public(command, out.report);
    });
  });
  if (!a.exact && stop && stop->load())
    throw Interrupted("interrupted after " + std::to_string(a.nodes) +
                      " nodes: the value lies in [" + std::to_string(a.lower) + ", " +
                      std::to_string(a.upper) + "]");
  return a;
}

}  // namespace

std::string version() {
  return KALAH_VERSION_STRING;
}

std::string default_directory() {
  return default_database_dir();
}

// Between Position and kalah::Position (the solver's), converted at each call: a copy of 16
// bytes and the rule codes, cheap next to text.
struct PositionAccess {
  static kalah::Rules rules(const Position& q) {
    return {q.pits_, static_cast<Capture>(q.rules_[0]), static_cast<End>(q.rules_[1]),
            static_cast<Remainder>(q.rules_[2])};
  }
  static kalah::Position internal(const Position& q) {
    kalah::Position p;
    std::memcpy(p.board.pits.data(), q.board_.pits, sizeof q.board_.pits);
    p.mover_store = q.stores_[0];
    p.opponent_store = q.stores_[1];
    p.mover = q.mover_ == 'S' ? Side::kSouth : Side::kNorth;
    return p;
  }
  static Position public_position(const kalah::Rules& rules, const kalah::Position& p) {
    Position q;
    q.pits_ = static_cast<uint8_t>(rules.pits);
    q.rules_[0] = static_cast<uint8_t>(rules.capture);
    q.rules_[1] = static_cast<uint8_t>(rules.end);
    q.rules_[2] = static_cast<uint8_t>(rules.remainder);
    std::memcpy(q.board_.pits, p.board.pits.data(), sizeof q.board_.pits);
    q.stores_[0] = p.mover_store;
    q.stores_[1] = p.opponent_store;
    q.mover_ = p.mover == Side::kSouth ? 'S' : 'N';
    return q;
  }
};

Position Position::start(const Rules& rules, int seeds) {
  const kalah::Rules r = internal_rules(rules);
  return PositionAccess::public_position(r, start_position(r.pits, seeds));
}

Position Position::parse(const std::string& text, const Rules& rules) {
  if (rules.pits != 0) internal_rules(rules);
  const ParsedPosition parsed = parse_position(text, rules.pits);
  Rules with_pits = rules;
  with_pits.pits = parsed.pits;
  return PositionAccess::public_position(internal_rules(with_pits), parsed.position);
}

Rules Position::rules() const {
  return public_rules(PositionAccess::rules(*this));
}

std::vector<int> Position::legal_moves() const {
  std::vector<int> moves;
  if (is_over()) return moves;
  for (int pit = 0; pit < pits_; ++pit)
    if (board_.pits[pit]) moves.push_back(pit + 1);
  return moves;
}

Position Position::play(int pit) const {
  if (is_over()) throw std::invalid_argument("the game is over: no move is legal");
  if (pit < 1 || pit > pits_ || !board_.pits[pit - 1])
    throw std::invalid_argument("pit " + std::to_string(pit) + " is not a legal move of " + str() +
                                " (pits 1.." + std::to_string(pits_) +
                                " in sowing order, with seeds)");
  const kalah::Rules r = PositionAccess::rules(*this);
  return PositionAccess::public_position(r, apply(r, PositionAccess::internal(*this), pit - 1));
}

bool Position::is_over() const {
  return is_terminal(PositionAccess::rules(*this), PositionAccess::internal(*this).board);
}

int Position::score() const {
  const kalah::Rules r = PositionAccess::rules(*this);
  const kalah::Position p = PositionAccess::internal(*this);
  return final_margin(p, is_terminal(r, p.board) ? terminal_value(r, p.board) : 0);
}

std::string Position::str() const {
  return format_relative(PositionAccess::internal(*this), pits_);
}

std::string Position::absolute() const {
  return format_absolute(PositionAccess::internal(*this), pits_);
}

struct Database::Impl {
  std::unique_ptr<kalah::Database> db;
  uint64_t copy_epoch = 0;  // when it was opened (check_copies)

  Analysis analyse(const std::string& command, const kalah::Rules& rules,
                   const kalah::Position& p, const std::atomic<bool>* stop,
                   const Options& options) const {
    return answer(command, rules, p, db.get(), kAnalysisTableBytes, stop, options);
  }
};

Database::Database(const std::string& directory, const Rules& rules, size_t cache_mb)
    : impl_(std::make_unique<Impl>()) {
  Rules wanted = rules;
  if (directory.empty())
    throw std::invalid_argument(
        "no database directory given, and no default one (KALAH_DB, XDG_CACHE_HOME and HOME give "
        "none)");
  if (!std::filesystem::is_directory(directory))
    throw std::invalid_argument(directory + ": no such database directory");
  if (wanted.pits == 0) {
    // Every pit count the directory holds for these rules: there must be exactly one.
    const kalah::Rules r = internal_rules({6, rules.capture, rules.end, rules.remainder});
    std::vector<int> found;
    for (const VariantFiles& v : rethrowing([&] { return list_variants(directory); }))
      if (v.rules.capture == r.capture && v.rules.end == r.end && v.rules.remainder == r.remainder)
        found.push_back(v.rules.pits);
    if (found.size() != 1)
      throw std::invalid_argument(
          directory + ": " +
          (found.empty()
               ? "no layer files for " + describe(r) + "; " +
                     describe_variants(rethrowing([&] { return list_variants(directory); }))
               : "layers of several pit counts for " + describe(r) + "; give pits"));
    wanted.pits = found[0];
  }
  const kalah::Rules r = internal_rules(wanted);
  impl_->db =
      rethrowing([&] {
        return std::make_unique<kalah::Database>(
            directory, r, cache_mb ? cache_mb << 20 : kalah::Database::search_cache_bytes());
      });
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
    const CopyWatch copies(impl_->db.get());
    const std::optional<int> value = impl_->db->probe(p.board);
    copies.check();
    return value;
  });
  if (!v) return std::nullopt;
  return final_margin(p, *v);
}

std::optional<int> Database::probe(const Position& position) const {
  check_same_rules(impl_->db->rules(), PositionAccess::rules(position));
  const std::optional<int> v = probe_board(position.board());
  if (!v) return std::nullopt;
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

Analysis analyse(const Rules& rules, const std::string& position, const Database* db,
                 const std::atomic<bool>* stop, const Options& options) {
  const Position q = Position::parse(position, rules);
  const kalah::Rules r = PositionAccess::rules(q);
  const kalah::Position p = PositionAccess::internal(q);
  if (db) {
    check_same_rules(db->impl_->db->rules(), r);
    return db->impl_->analyse("solve", r, p, stop, options);
  }
  return answer("solve", r, p, nullptr, kSearchTableBytes, stop, options);
}

Analysis solve(const Rules& rules, int seeds, const Database* db, const std::atomic<bool>* stop,
               const Options& options) {
  const kalah::Rules r = internal_rules(rules);  // pits = 0 is refused here
  return analyse(rules, format_relative(start_position(r.pits, seeds), r.pits), db, stop,
                 options);
}

}  // namespace kalah::api
