// analyse.cpp: database, else search.
#include "api/analyse.h"

#include <unordered_map>

#include "solver/analysis.h"
#include "solver/solver.h"
#include "solver/units.h"

namespace kalah {

std::optional<Report> stored_report(const Rules& rules, const Position& p, const Database* db) {
  if (!db || !db->answers() || seeds(p.board) <= db->max_seeds()) return std::nullopt;
  const std::optional<StoredAnswer> s = db->answers()->find(p);
  if (!s) return std::nullopt;
  Report r;
  r.rules = rules;
  r.position = p;
  r.analysis = s->analysis;
  r.source = "store";
  return r;
}

Outcome analyse_position(const Rules& rules, const Position& p, const Database* db,
                         size_t table_bytes, const std::atomic<bool>* stop,
                         const MoveProgress& progress, const Checkpointing* checkpoint,
                         const OverProcesses& over) {
  const auto t0 = std::chrono::steady_clock::now();
  const CopyWatch copies(db);
  Outcome out;
  Report& r = out.report;
  r.rules = rules;
  r.position = p;
  if (db && seeds(p.board) <= db->max_seeds()) {
    r.analysis = db->analyse(p, r.probes);
    r.source = "database";
    r.nodes = r.probes;
  } else if (auto stored = stored_report(rules, p, db)) {
    out.report = *stored;
  } else {
    const ParallelAnalysis pa =
        over.transport
            ? analyse_frontier(rules, p, db, *over.transport, stop, over.frontier, checkpoint,
                               over.stats)
            : analyse_parallel(rules, p, db, table_bytes, stop, progress, checkpoint);
    r.analysis = pa.analysis;
    r.source = "search";
    r.nodes = pa.nodes;
    r.probes = pa.probes;
    r.earlier_nodes = pa.earlier_nodes;
    out.interrupted = pa.interrupted;
    out.lower = pa.lower;
    out.upper = pa.upper;
  }
  copies.check();  // a decoded copy changed under the answer: withheld
  r.seconds = seconds_since(t0);
  if (r.source == "search" && !out.interrupted && db && db->answers())
    db->answers()->put(p, {r.analysis, r.nodes, r.seconds, false});
  return out;
}

PieOutcome pie_position(const Rules& rules, const Position& p, const Database* db,
                        size_t table_bytes, const std::atomic<bool>* stop,
                        const PieProgress& progress, const CheckpointsFor& checkpoints) {
  const CopyWatch copies(db);
  PieOutcome out;
  // V of every opening's board, from full analyses on all cores: of p, and of every position an
  // extra turn within the first turn leads to (each values all its moves exactly).
  std::unordered_map<Board, int, BoardHash> known;
  const std::function<bool(const Position&)> analyse_turns = [&](const Position& q) {
    const std::shared_ptr<const Checkpointing> checkpoint = checkpoints ? checkpoints(q) : nullptr;
    const ParallelAnalysis pa = analyse_parallel(
        rules, q, db, table_bytes, stop,
        [&](const AnalysisProgress& now) { if (progress) progress(known.size(), now); },
        checkpoint.get());
    out.nodes += pa.nodes;
    out.probes += pa.probes;
    out.earlier_nodes += pa.earlier_nodes;
    if (pa.interrupted) return false;
    for (const MoveReport& move : pa.analysis.moves) {
      const Position c = apply(rules, q, move.pit);
      if (c.mover == q.mover && !is_terminal(rules, c.board)) {
        if (!analyse_turns(c)) return false;
      } else {
        known[c.board] = (c.mover == q.mover ? move.value : -move.value) - final_margin(c, 0);
      }
    }
    return true;
  };
  if (analyse_turns(p))
    out.pie = pie_rule(rules, p, [&](const Board& b) { return known.at(b); });
  else
    out.interrupted = true;
  copies.check();
  return out;
}

namespace {

// The pie rule's tests on one opening, on all cores: its counts go to the outcome, and a raised
// `stop` ends the rule (the checkpoint, if any, keeps what was proven).
class PieTests : public MarginTests {
 public:
  PieTests(const Rules& rules, const Position& after, const Database* db, size_t table_bytes,
           const std::atomic<bool>* stop, std::shared_ptr<const Checkpointing> checkpoint,
           PieOutcome& out)
      : checkpoint_(std::move(checkpoint)),
        tests_(rules, after, db, table_bytes, stop, checkpoint_.get()),
        stop_(stop),
        out_(out) {}
  ~PieTests() override {
    tests_.add_counts(out_.nodes, out_.probes);
    out_.earlier_nodes += tests_.earlier_nodes();
  }
  Bounds test(int beta) override {
    const Bounds proven = tests_.test(beta);
    if (stop_ && stop_->load()) throw SearchInterrupted();
    return proven;
  }

 private:
  std::shared_ptr<const Checkpointing> checkpoint_;  // outlives the tests, which save to it
  RootTests tests_;
  const std::atomic<bool>* stop_;
  PieOutcome& out_;
};

}  // namespace

PieOutcome pie_value_position(const Rules& rules, const Position& p, const Database* db,
                              size_t table_bytes, const std::atomic<bool>* stop,
                              const PieValueProgress& progress,
                              const CheckpointsFor& checkpoints) {
  const CopyWatch copies(db);
  PieOutcome out;
  size_t searched = 0;
  try {
    out.pie = pie_value(rules, p, [&](const Position& after) -> std::unique_ptr<MarginTests> {
      if (progress) progress(searched);
      ++searched;
      return std::make_unique<PieTests>(rules, after, db, table_bytes, stop,
                                        checkpoints ? checkpoints(after) : nullptr, out);
    });
  } catch (const SearchInterrupted&) {
    out.interrupted = true;
  }
  copies.check();
  return out;
}

JsonObject outcome_json(const std::string& command, const Outcome& o) {
  const Report& r = o.report;
  if (o.interrupted)
    return interrupted_json(command, r.rules, r.position, o.lower, o.upper, r.nodes, r.seconds);
  return analysis_json(command, r);
}

}  // namespace kalah
