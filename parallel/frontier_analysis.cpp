// frontier_analysis.cpp: the value and the full analysis over a frontier search, with its
// checkpoints.
#include "parallel/frontier_analysis.h"

#include <chrono>

namespace kalah {
namespace {

// Saves the DAG's bounds every checkpoint->seconds (between tests or a test's rounds: the
// manager's state is in no thread's hands then), and once at the end.
class FrontierSaves {
 public:
  FrontierSaves(FrontierSearch& search, const Board& root, const Checkpointing* checkpoint,
                uint64_t earlier)
      : search_(search),
        root_(root),
        checkpoint_(checkpoint && checkpoint->save ? checkpoint : nullptr),
        earlier_(earlier) {}
  void maybe() {
    if (checkpoint_ && std::chrono::steady_clock::now() >= due_) now();
  }
  void now() {
    if (!checkpoint_) return;
    SearchState state;
    state.moves = search_.moves(root_);
    state.entries = search_.proven();
    state.nodes = earlier_ + search_.stats().nodes;
    checkpoint_->save(state);
    due_ = std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(
               std::chrono::duration<double>(checkpoint_->seconds));
  }

 private:
  FrontierSearch& search_;
  const Board root_;
  const Checkpointing* checkpoint_;
  uint64_t earlier_;
  std::chrono::steady_clock::time_point due_ = std::chrono::steady_clock::now();
};

uint64_t resume(FrontierSearch& search, const Checkpointing* checkpoint) {
  if (!checkpoint || !checkpoint->resume) return 0;
  search.restore(checkpoint->resume->entries);
  return checkpoint->resume->nodes;
}

// What the search proved of p: bounds on its final margin and its moves', and the counts.
SearchProgress progress_of(FrontierSearch& search, const Position& p) {
  const int stores = p.mover_store - p.opponent_store;
  SearchProgress now;
  const Bounds b = search.bounds(p.board);
  now.margin = {stores + b.lower, stores + b.upper};
  for (const MoveBounds& m : search.moves(p.board)) {
    now.done += m.bounds.exact();
    now.moves.push_back({m.pit, {stores + m.bounds.lower, stores + m.bounds.upper}});
  }
  now.total = static_cast<int>(now.moves.size());
  now.nodes = search.stats().nodes;
  return now;
}

// Between a test's rounds: a checkpoint when one is due and, once a second, a progress report
// (the first test of Kalah(6,6) over 34 seeds runs for hours).
void watch(FrontierSearch& search, FrontierSaves& saves, const SearchSetup& setup,
           const Position& p, FrontierStats* stats) {
  auto next = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  search.between_rounds([&search, &saves, &setup, p, stats, next]() mutable {
    saves.maybe();
    const auto now = std::chrono::steady_clock::now();
    if (now < next) return;
    next = now + std::chrono::seconds(1);
    if (stats) *stats = search.stats();
    if (setup.progress) setup.progress(progress_of(search, p));
  });
}

// The counts at the end, once every job is in.
void finish(FrontierSearch& search, FrontierSaves& saves, SearchResult& out, FrontierStats* stats) {
  search.finish();
  saves.now();
  out.nodes = search.stats().nodes;
  out.probes = search.stats().probes;
  if (stats) *stats = search.stats();
}

}  // namespace

SearchResult value_frontier(const SearchSetup& setup, const Position& p, JobTransport& transport,
                            const FrontierOptions& options, FrontierStats* stats) {
  SearchResult out;
  const int stores = p.mover_store - p.opponent_store;
  if (is_terminal(setup.rules, p.board)) {
    out.margin.lower = out.margin.upper = stores + terminal_value(setup.rules, p.board);
    return out;
  }
  FrontierSearch search(setup, transport, options);
  out.earlier_nodes = resume(search, setup.checkpoint);
  FrontierSaves saves(search, p.board, setup.checkpoint, out.earlier_nodes);
  watch(search, saves, setup, p, stats);
  Bounds bounds;
  try {
    bounds = search.value(p.board, [&](const Bounds&) {
      saves.maybe();
      if (stats) *stats = search.stats();  // for the progress report
      if (setup.progress) setup.progress(progress_of(search, p));
      return true;
    });
    for (int pit = 0; pit < setup.rules.pits && out.best_pit < 0; ++pit)
      if (p.board.pits[pit] > 0 && search.reaches(p.board, pit, bounds.lower)) out.best_pit = pit;
  } catch (const SearchInterrupted& e) {
    out.stopped = e.reason;
    bounds = search.bounds(p.board);
  }
  finish(search, saves, out, stats);
  out.margin = {stores + bounds.lower, stores + bounds.upper};
  return out;
}

SearchResult analyse_frontier(const SearchSetup& setup, const Position& p, JobTransport& transport,
                              const FrontierOptions& options, FrontierStats* stats) {
  SearchResult out;
  FrontierSearch search(setup, transport, options);
  out.earlier_nodes = resume(search, setup.checkpoint);
  FrontierSaves saves(search, p.board, setup.checkpoint, out.earlier_nodes);
  watch(search, saves, setup, p, stats);
  const auto value = [&](const Board& b) {
    const Bounds v = search.value(b, [&](const Bounds&) {
      saves.maybe();
      return true;
    });
    return v.lower;
  };
  const auto reaches = [&](const Board& b, int pit, int v) { return search.reaches(b, pit, v); };
  try {
    out.analysis = analyse(setup.rules, p, value, reaches);
    out.margin.lower = out.margin.upper = out.analysis.value;
  } catch (const SearchInterrupted& e) {
    out.stopped = e.reason;
    const int stores = p.mover_store - p.opponent_store;
    const Bounds b = search.bounds(p.board);
    out.margin = {stores + b.lower, stores + b.upper};
  }
  finish(search, saves, out, stats);
  return out;
}

}  // namespace kalah
