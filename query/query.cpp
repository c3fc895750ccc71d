// query.cpp: run(), the cascade behind every answer: database, answer store, search.
#include "query/query.h"

#include <tbb/task_arena.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "base/deadline.h"
#include "base/regular_file.h"
#include "base/threads.h"
#include "base/units.h"
#include "query/database_analysis.h"
#include "query/estimating.h"
#include "query/query_search.h"

namespace kalah {

size_t table_bytes(const Query& q) {
  if (q.table_mb) return q.table_mb << 20;
  const bool small_tree = q.db && (q.ask == Ask::kAnalysis || q.ask == Ask::kPie);
  return small_tree ? kAnalysisTableBytes : kSearchTableBytes;
}

double expected_nodes(const Query& q) {
  const int on_board = seeds(q.position.board);
  const int above = on_board - (q.db ? q.db->max_seeds() : 0);
  // Below six pits every game solves in minutes at most (Kalah(5,6): 4e7 nodes, 25 s).
  if (above <= 0 || q.rules.pits < 6) return 0;
  // log10 of the nodes of a value search on one thread, seeds scaled to six pits: a fit to
  // Kalah(6,4) empty over 28, 22 and 18 seeds (4.1e5, 5.0e6, 2.1e7 nodes; standard over 22,
  // 1.3e7) and Kalah(6,5) empty over 34, 28 and 22 (2e7, 2.4e8, 2.9e9; standard over 28, 5.9e8),
  // each within 3x: the seeds above the database count, and so do those on the board. Past 60
  // seeds nothing was measured to the end: the square term puts Kalah(6,6) over 34 seeds at 1e13
  // nodes (Rawlings' solver took 5.5e13; kalah's first hour, 1.3e10, ended no test). A full
  // analysis takes about 5 times its value (docs/costs.md).
  const double scale = 6.0 / q.rules.pits, n = on_board * scale;
  double log_nodes = -0.25 + 0.175 * above * scale + 0.05 * n;
  if (n > 60) log_nodes += 0.0208 * (n - 60) * (n - 60);
  return std::pow(10.0, log_nodes) * (q.ask == Ask::kAnalysis ? 5 : 1);
}

namespace {

void check(const Query& q) {
  if (q.db) check_same_rules(q.db->rules(), q.rules);
  const bool pie = q.ask == Ask::kPie || q.ask == Ask::kPieValue;
  if (pie && !q.certificate.empty())
    throw std::invalid_argument("a certificate proves a position's value; not with the pie rule");
  if (!q.certificate.empty()) {  // checked before the search, not after its hours
    std::filesystem::path dir = std::filesystem::path(q.certificate).parent_path();
    if (dir.empty()) dir = ".";
    if (!std::filesystem::is_directory(dir) || access(dir.c_str(), W_OK) != 0)
      throw std::invalid_argument("the certificate's directory " + dir.string() +
                                  " does not exist or cannot be written");
    if (const std::string what = not_writable_as_file(q.certificate); !what.empty())
      throw std::invalid_argument("the certificate " + q.certificate + " is " + what +
                                  ", not a file kalah may replace");
  }
  if (q.transport && (pie || q.ask == Ask::kMove || !q.certificate.empty()))
    throw std::invalid_argument(
        "over processes kalah answers a value or a full analysis without a certificate");
}

// The best move of an analysis the tables hold (the lowest pit among equals, as its best line's),
// proven at once: every level that plays the best move plays it.
MoveChoice best_move(const Analysis& a, Source source) {
  return {a.best_line.empty() ? -1 : a.best_line[0][0], true, a.value, source, 0};
}

// The proof of the value, written after it (its seconds are its own): a stop while it is
// written leaves the value exact and the outcome stopped.
void certify_value(const Query& q, const StopFlag* stop, Outcome& o) {
  QueryProgress now;
  try {
    o.certificate = certify(q.certificate, q.rules, q.position, o.margin.lower, q.db, stop,
                            [&](uint64_t positions) {
                              if (!q.progress) return;
                              now.certified = positions;
                              q.progress(now);
                            });
  } catch (const SearchInterrupted& e) {
    o.stopped = e.reason;
  }
}

Outcome run_here(const Query& q, const StopFlag* stop) {
  const auto t0 = std::chrono::steady_clock::now();
  const CopyWatch copies(q.db);
  Outcome o;
  o.rules = q.rules;
  o.position = q.position;
  const bool value = q.ask == Ask::kAnalysis || q.ask == Ask::kValue;
  if (q.ask == Ask::kMove) {
    // A weaker level reads the tables through its own run() (level_move).
    Outcome known;
    o.move = q.level && q.level->weaker() ? level_move(q, stop)
             : from_tables(q, known)      ? best_move(*known.analysis, known.source)
                                          : move_of(q, stop);
    o.source = o.move->source;
    // What is proven of the position: its value with a proven move, else only what its seeds
    // allow (the move's estimate stays in o.move).
    o.margin = o.move->proven ? Bounds{o.move->value, o.move->value} : margin_bounds(q.position);
  } else if (!(value && from_tables(q, o))) {
    search(q, stop, o);
  }
  copies.check();  // a decoded copy changed under the answer: withheld
  o.seconds = seconds_since(t0);
  if (q.ask == Ask::kAnalysis && o.source == Source::kSearch && o.complete() && q.db && q.store)
    q.store->put(q.position, {*o.analysis, o.nodes, o.seconds, false});
  if (value && o.complete() && !q.certificate.empty()) certify_value(q, stop, o);
  return o;
}

}  // namespace

void check_same_rules(const Rules& held, const Rules& asked) {
  if (!(held == asked))
    throw std::invalid_argument("the database holds m=" + std::to_string(held.pits) + " " +
                                describe(held) + ", not m=" + std::to_string(asked.pits) + " " +
                                describe(asked));
}

// As cheap as the value, so it is the answer to a value too.
bool from_tables(const Query& q, Outcome& o) {
  const Position& p = q.position;
  if (q.db && seeds(p.board) <= q.db->max_seeds()) {
    o.analysis = analyse(*q.db, p, o.probes);
    o.source = Source::kDatabase;
    o.nodes = o.probes;
  } else if (std::optional<StoredAnswer> s; q.db && q.store && (s = q.store->find(p)).has_value()) {
    o.analysis = s->analysis;
    o.source = Source::kStore;
  } else {
    return false;
  }
  o.margin = {o.analysis->value, o.analysis->value};
  return true;
}

Outcome not_started(const Query& q, StopReason why, std::chrono::milliseconds estimate_time) {
  Outcome o;
  o.rules = q.rules;
  o.position = q.position;
  o.stopped = why;
  o.margin = margin_bounds(q.position);
  o.estimate = estimate_for(q, estimate_time);
  return o;
}

Outcome run(const Query& q) {
  validate(q.rules);
  check(q);
  // Stopped by the caller's flag or by the deadline, whichever comes first (a move has its
  // deadline of its own).
  StopFlag halt;
  std::optional<Deadline> deadline;
  const StopFlag* stop = q.stop;
  if (q.deadline && q.ask != Ask::kMove) {
    deadline.emplace(*q.deadline, halt, q.stop);
    stop = &halt;
  }
  if (q.threads <= 0) return run_here(q, stop);
  tbb::task_arena arena(thread_count(q.threads));  // the call's own: calls do not limit others
  return arena.execute([&] { return run_here(q, stop); });
}

}  // namespace kalah
