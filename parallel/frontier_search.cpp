// frontier_search.cpp: the manager of a search spread over processes: its DAG, the tests on it,
// and the jobs they send (docs/design.md §7, "Over several processes").
#include "parallel/frontier_search.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "solver/mtdf.h"

namespace kalah {

FrontierSearch::FrontierSearch(const SearchSetup& setup, JobTransport& transport,
                               const FrontierOptions& options)
    : rules_(setup.rules),
      leaves_(setup.leaves),
      transport_(transport),
      stop_(setup.stop),
      options_(options) {
  validate(rules_);
  for (int p = 0; p < transport.processes(); ++p) stats_.slots += transport.slots(p);
  in_flight_.assign(transport.processes(), 0);
  stats_.nodes_by_process.assign(transport.processes(), 0);
}

int FrontierSearch::node_of(const Board& b) {
  if (const auto it = index_.find(b); it != index_.end()) return it->second;
  Node node;
  node.board = b;
  const int s = seeds(b);
  if (is_terminal(rules_, b)) {
    node.bounds.lower = node.bounds.upper = terminal_value(rules_, b);
  } else if (leaves_ && s <= leaves_->max_seeds()) {
    node.bounds.lower = node.bounds.upper = leaves_->value(b);
  } else {
    node.bounds = {-s, s};
    if (const auto k = known_.find(b); k != known_.end()) node.bounds = k->second;
  }
  nodes_.push_back(node);
  const int n = static_cast<int>(nodes_.size()) - 1;
  index_.emplace(b, n);
  return n;
}

bool FrontierSearch::expand(int n, int home) {
  if (!nodes_[n].leaf || nodes_[n].bounds.exact() || nodes_.size() >= options_.max_nodes)
    return false;
  const size_t before = nodes_.size();
  const Board b = nodes_[n].board;
  std::vector<Edge> edges;
  for (int pit = 0; pit < rules_.pits; ++pit) {
    if (b.pits[pit] == 0) continue;
    const MoveResult r = play(rules_, b, pit);
    edges.push_back({r, pit, node_of(r.board)});  // may grow nodes_: no reference held across it
  }
  nodes_[n].edges = std::move(edges);
  nodes_[n].leaf = false;
  for (size_t c = before; c < nodes_.size(); ++c)
    nodes_[c].home = home >= 0 ? home : owner_process(nodes_[c].board, transport_.processes());
  stats_.dag_nodes = nodes_.size();
  return true;
}

void FrontierSearch::deepen(int root) {
  const size_t target = static_cast<size_t>(options_.leaves_per_slot) * stats_.slots;
  for (int depth = 0; depth <= options_.max_depth; ++depth) {
    // The open leaves under root, each once.
    std::vector<int> open, stack{root};
    ++pass_;
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      if (nodes_[n].seen == pass_ || nodes_[n].bounds.exact()) continue;
      nodes_[n].seen = pass_;
      if (nodes_[n].leaf)
        open.push_back(n);
      else
        for (const Edge& e : nodes_[n].edges) stack.push_back(e.child);
    }
    if (open.empty() || (open.size() >= target && !nodes_[root].leaf)) break;
    if (depth == options_.max_depth) break;
    bool grew = false;
    for (int n : open) grew |= expand(n, nodes_[n].home);
    if (!grew) break;  // the DAG holds as many boards as it may
  }
}

Bounds FrontierSearch::refresh(int n) {
  Node& node = nodes_[n];
  if (node.leaf || node.seen == pass_ || node.bounds.exact()) return node.bounds;
  node.seen = pass_;
  Bounds best{-kMaxBoardSeeds - 1, -kMaxBoardSeeds - 1};
  for (const Edge& e : node.edges) {
    const Bounds c = move_bounds(e.result, refresh(e.child));
    best.lower = std::max(best.lower, c.lower);
    best.upper = std::max(best.upper, c.upper);
  }
  node.bounds.lower = std::max(node.bounds.lower, best.lower);
  node.bounds.upper = std::min(node.bounds.upper, best.upper);
  if (node.bounds.lower > node.bounds.upper)
    throw std::logic_error("frontier search: a node's bounds do not meet");
  return node.bounds;
}

void FrontierSearch::select(int n, int beta, bool eager, bool cut, std::vector<Wanted>& out) {
  Node& node = nodes_[n];
  if (node.bounds.lower >= beta || node.bounds.upper < beta || node.seen == pass_) return;
  node.seen = pass_;
  if (node.leaf) {
    out.push_back({n, beta});
    return;
  }
  // The children still undecided, likeliest to reach beta first: by the middle of their
  // bounds, then extra turns, then the pit nearest the store (as the solver orders moves).
  struct Child {
    int mid, extra, pit;
    const Edge* edge;
  };
  Child open[kMaxPits];
  int count = 0;
  bool failed = false;  // some child is known not to reach beta
  for (int i = 0; i < static_cast<int>(node.edges.size()) && i < kMaxPits; ++i) {
    const Edge& e = node.edges[i];
    const Bounds mb = move_bounds(e.result, nodes_[e.child].bounds);
    if (mb.upper < beta)
      failed = true;
    else
      open[count++] = {mb.lower + mb.upper, e.result.extra_turn, i, &e};
  }
  const auto before = [](const Child& x, const Child& y) {
    if (x.mid != y.mid) return x.mid > y.mid;
    if (x.extra != y.extra) return x.extra > y.extra;
    return x.pit > y.pit;
  };
  for (int i = 1; i < count; ++i)  // at most 8: an insertion sort
    for (int j = i; j > 0 && before(open[j], open[j - 1]); --j) std::swap(open[j], open[j - 1]);
  // Young Brothers Wait: the others only once one child failed (then all probably must).
  // Speculation (eager) also takes the others where all are expected to be needed: at a node
  // expected to fail the test (an all-node); at one expected to pass (a cut-node) one child
  // probably decides. The children of a cut-node are all-nodes and those of an all-node
  // cut-nodes, unless the move earns an extra turn (the same player's test goes on).
  const bool all = failed || !cut;
  if (!all || !eager) count = std::min(count, failed ? count : 1);
  for (int i = 0; i < count; ++i) {
    const Edge& e = *open[i].edge;
    select(e.child, child_window(e.result, beta - 1, beta).beta, eager,
           e.result.extra_turn ? !all : all, out);
  }
}

void FrontierSearch::merge(const std::vector<LeafAnswer>& answers) {
  for (const LeafAnswer& a : answers) {
    const auto it = flights_.find(a.id);
    if (it == flights_.end()) throw std::logic_error("frontier search: an answer to no job");
    const Flight f = it->second;
    flights_.erase(it);
    if (!f.cancelled) --in_flight_[f.process];
    stats_.nodes += a.nodes;
    stats_.probes += a.probes;
    stats_.nodes_by_process[f.process] += a.nodes;
    stats_.busy_seconds += a.microseconds * 1e-6;
    Bounds& b = nodes_[f.node].bounds;
    b.lower = std::max<int>(b.lower, a.lower);
    b.upper = std::min<int>(b.upper, a.upper);
    if (b.lower > b.upper) throw std::logic_error("frontier search: answers contradict");
    // The frontier grows where the work is: a leaf whose job was a large part of all so far
    // becomes its children, which idle processes can then share. They start where it ran,
    // whose table holds their subtrees.
    if (a.nodes >= std::max(kRefineNodes, stats_.nodes / (2 * stats_.slots)))
      refine(f.node, f.process);
  }
}

void FrontierSearch::refine(int n, int home) {
  if (expand(n, home)) ++stats_.refined;
}

bool FrontierSearch::refine_oldest(double seconds) {
  if (nodes_.size() >= options_.max_nodes) return false;  // no room to refine: jobs run on
  const auto now = std::chrono::steady_clock::now();
  uint64_t oldest = 0;
  for (const auto& [id, f] : flights_)
    if (!f.cancelled && nodes_[f.node].leaf && !nodes_[f.node].bounds.exact() &&
        std::chrono::duration<double>(now - f.sent).count() >= seconds &&
        (!oldest || f.sent < flights_[oldest].sent))
      oldest = id;
  if (!oldest) return false;
  Flight& f = flights_[oldest];
  transport_.cancel(f.process, oldest);
  f.cancelled = true;
  --in_flight_[f.process];
  ++stats_.cancelled;
  refine(f.node, f.process);
  return true;
}

Bounds FrontierSearch::test(int n, int beta) {
  for (;;) {
    const Bounds b = refreshed(n);
    if (b.lower >= beta || b.upper < beta) return b;
    if (stop_ && stop_->raised()) throw SearchInterrupted(stop_->reason());
    // What the test needs, then what would keep idle slots busy.
    std::vector<Wanted> want;
    ++pass_;
    select(n, beta, false, true, want);
    const size_t needed = want.size();
    ++pass_;
    select(n, beta, true, true, want);
    std::unordered_set<uint64_t> flying = cancel_unwanted(want);
    dispatch(want, needed, flying);
    // A process idles while a job runs long, or a job runs longer than the options allow: that
    // job's leaf becomes its children, which the next round spreads.
    bool idle_process = false;
    for (int p = 0; p < transport_.processes(); ++p) idle_process |= idle(p);
    if ((idle_process && refine_oldest(kRefineSeconds)) ||
        refine_oldest(options_.longest_job_seconds))
      continue;
    merge(transport_.exchange(0.05));
    stats_.bytes = transport_.bytes();
    if (between_rounds_) between_rounds_();
  }
}

std::unordered_set<uint64_t> FrontierSearch::cancel_unwanted(const std::vector<Wanted>& want) {
  std::unordered_set<uint64_t> wanted, flying;
  for (const Wanted& w : want) wanted.insert(key(w.node, w.beta));
  for (auto& [id, f] : flights_) {
    if (f.cancelled) continue;
    if (!wanted.count(key(f.node, f.beta))) {
      transport_.cancel(f.process, id);
      f.cancelled = true;
      --in_flight_[f.process];
      ++stats_.cancelled;
    } else {
      flying.insert(key(f.node, f.beta));
    }
  }
  return flying;
}

// A job goes to its leaf's home while it has an idle slot. A job the test needs may also wait
// there (two a slot at most), unless another process has an idle slot: that one takes it and
// becomes the leaf's home. Speculative jobs only fill idle slots of their homes.
void FrontierSearch::dispatch(const std::vector<Wanted>& want, size_t needed,
                              std::unordered_set<uint64_t>& flying) {
  const int processes = transport_.processes();
  for (size_t i = 0; i < want.size(); ++i) {
    const Wanted& w = want[i];
    if (!flying.insert(key(w.node, w.beta)).second) continue;
    Node& node = nodes_[w.node];
    if (node.home < 0) node.home = owner_process(node.board, processes);  // a search's root
    int p = node.home;
    if (!idle(p)) {
      if (i >= needed) continue;
      int q = 0;
      while (q < processes && !idle(q)) ++q;
      if (q < processes)
        p = q;
      else if (in_flight_[p] >= 2 * transport_.slots(p))
        continue;
    }
    node.home = p;
    const uint64_t id = next_id_++;
    transport_.submit(p, {id, node.board, w.beta});
    flights_[id] = {w.node, w.beta, p, std::chrono::steady_clock::now()};
    ++in_flight_[p];
    ++stats_.jobs;
  }
}

void FrontierSearch::finish() {
  for (auto& [id, f] : flights_)
    if (!f.cancelled) {
      transport_.cancel(f.process, id);
      f.cancelled = true;
      --in_flight_[f.process];
    }
  while (!flights_.empty()) merge(transport_.exchange(0.05));
  stats_.bytes = transport_.bytes();
}

Bounds FrontierSearch::bounds(const Board& b) {
  const auto it = index_.find(b);
  if (it == index_.end()) {
    const int s = seeds(b);
    return {-s, s};
  }
  return refreshed(it->second);
}

Bounds FrontierSearch::value(const Board& b, const std::function<bool(const Bounds&)>& after_test) {
  const int n = node_of(b);
  deepen(n);
  Bounds bounds = refreshed(n);
  mtdf(
      bounds, std::clamp(0, bounds.lower, bounds.upper), [&](int beta) { return test(n, beta); },
      [&](const Bounds& so_far) { return !after_test || after_test(so_far); });
  return bounds;
}

bool FrontierSearch::reaches(const Board& b, int pit, int v) {
  const MoveResult r = play(rules_, b, pit);
  const int c = node_of(r.board);
  deepen(c);
  return move_bounds(r, test(c, child_window(r, v - 1, v).beta)).lower >= v;
}

std::vector<MoveBounds> FrontierSearch::moves(const Board& b) {
  std::vector<MoveBounds> out;
  const auto it = index_.find(b);
  if (it == index_.end()) return out;
  refreshed(it->second);
  for (const Edge& e : nodes_[it->second].edges) {
    out.push_back({e.pit, move_bounds(e.result, nodes_[e.child].bounds)});
  }
  return out;
}

std::vector<TranspositionTable::Entry> FrontierSearch::proven() const {
  std::vector<TranspositionTable::Entry> out;
  for (const Node& node : nodes_) {
    const int s = seeds(node.board);
    if ((node.bounds.lower == -s && node.bounds.upper == s) || is_terminal(rules_, node.board) ||
        (leaves_ && s <= leaves_->max_seeds()))
      continue;
    out.push_back({node.board, static_cast<int16_t>(node.bounds.lower),
                   static_cast<int16_t>(node.bounds.upper), -1, 0, 0});
  }
  // Bounds restored from a checkpoint whose boards the DAG has not reached again.
  for (const auto& [board, b] : known_)
    if (!index_.count(board))
      out.push_back(
          {board, static_cast<int16_t>(b.lower), static_cast<int16_t>(b.upper), -1, 0, 0});
  return out;
}

void FrontierSearch::restore(const std::vector<TranspositionTable::Entry>& entries) {
  for (const TranspositionTable::Entry& e : entries) known_[e.key] = {e.lo, e.hi};
}

}  // namespace kalah
