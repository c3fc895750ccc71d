// kalah.cpp: the public API (include/kalah/kalah.h) over the solver and database libraries.
#include "kalah/kalah.h"

#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "api/analyse.h"
#include "db/database.h"
#include "db/file_names.h"
#include "solver/notation.h"

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
  a.value = r.analysis.value;
  a.result = result_word(a.value);
  a.finished = r.analysis.finished;
  for (const MoveReport& mv : r.analysis.moves) {
    const Position next = apply(r.rules, r.position, mv.pit);
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

// The answer, or Interrupted with the bounds proven when the search was stopped.
Analysis outcome(const std::string& command, const Outcome& o) {
  if (o.interrupted)
    throw Interrupted("interrupted after " + std::to_string(o.report.nodes) +
                      " nodes: the value lies in [" + std::to_string(o.lower) + ", " +
                      std::to_string(o.upper) + "]");
  return to_public(command, o.report);
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
  uint64_t copy_epoch = 0;  // when it was opened (check_copies)

  Analysis analyse(const std::string& command, const kalah::Rules& rules, const Position& p,
                   const std::atomic<bool>* stop) const {
    return outcome(command, analyse_position(rules, p, db.get(), kAnalysisTableBytes, stop));
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
  const Position p = parse_position(position, rules.pits).position;
  const std::optional<int> v = rethrowing([&] {
    const CopyWatch copies(impl_->db.get());
    const std::optional<int> value = impl_->db->probe(p.board);
    copies.check();
    return value;
  });
  if (!v) return std::nullopt;
  return final_margin(p, *v);
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

Analysis Database::analyse(const std::string& position, const std::atomic<bool>* stop) const {
  const kalah::Rules& rules = impl_->db->rules();
  const Position p = parse_position(position, rules.pits).position;
  return rethrowing([&] { return impl_->analyse("query", rules, p, stop); });
}

Analysis analyse(const Rules& rules, const std::string& position, const Database* db,
                 const std::atomic<bool>* stop) {
  if (rules.pits != 0) internal_rules(rules);  // pits 0 is the position's; anything else is checked
  const ParsedPosition parsed = parse_position(position, rules.pits);
  Rules with_pits = rules;
  with_pits.pits = parsed.pits;
  const kalah::Rules r = internal_rules(with_pits);
  const Position& p = parsed.position;
  if (db) {
    const kalah::Rules& held = db->impl_->db->rules();
    if (!(held == r))
      throw std::invalid_argument("the database holds m=" + std::to_string(held.pits) + " " +
                                  describe(held) + ", not m=" + std::to_string(r.pits) + " " +
                                  describe(r));
    return rethrowing([&] { return db->impl_->analyse("solve", r, p, stop); });
  }
  return outcome("solve", analyse_position(r, p, nullptr, kSearchTableBytes, stop));
}

Analysis solve(const Rules& rules, int seeds, const Database* db, const std::atomic<bool>* stop) {
  const kalah::Rules r = internal_rules(rules);  // pits = 0 is refused here
  return analyse(rules, format_relative(start_position(r.pits, seeds), r.pits), db, stop);
}

}  // namespace kalah::api
