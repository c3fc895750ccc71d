// frontier_search.cpp: the manager of a search spread over processes, and the slots that run its
// jobs (docs/design.md §7, "Over several processes").
#include "solver/frontier_search.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <unordered_set>

#include "solver/mtdf.h"
#include "solver/units.h"

namespace kalah {

uint64_t owner_hash(const Board& b) {
  uint64_t w[2];
  std::memcpy(w, b.pits.data(), sizeof w);
  uint64_t h = (w[0] ^ (w[1] * 0xD6E8FEB86659FD93ull)) + 0x9E3779B97F4A7C15ull;
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  return h ^ (h >> 31);
}

namespace {

LeafAnswer nothing_proven(const LeafJob& job) {
  const int s = seeds(job.board);
  return {job.id, static_cast<int16_t>(-s), static_cast<int16_t>(s), 0, 0};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The slots.

struct SlotPool::Slot {
  std::unique_ptr<Solver> solver;
  uint64_t running = 0;  // the job's id, 0 when idle
  std::atomic<bool> cancel{false};
  LeafAnswer carried{};  // the counts of a search a growing table stopped, for the next answer
  std::thread thread;
};

SlotPool::SlotPool(const Rules& rules, const LeafValues* leaves, int slots, size_t table_bytes,
                   const std::atomic<bool>* stop)
    : table_(table_bytes, slots > 1), stop_(stop) {
  for (int i = 0; i < slots; ++i) {
    auto slot = std::make_unique<Slot>();
    slot->solver = std::make_unique<Solver>(rules, table_, leaves);
    slot->solver->set_stop_flag(stop);
    slot->solver->set_cancel_flag(&slot->cancel);
    slots_.push_back(std::move(slot));
  }
  for (auto& slot : slots_) slot->thread = std::thread([this, s = slot.get()] { run(*s); });
}

SlotPool::~SlotPool() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
    for (auto& slot : slots_) slot->cancel = true;
  }
  work_.notify_all();
  quiet_.notify_all();
  for (auto& slot : slots_) slot->thread.join();
}

void SlotPool::submit(const LeafJob& job) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(job);
  }
  work_.notify_one();
}

void SlotPool::cancel(uint64_t id) {
  {
    std::lock_guard lock(mutex_);
    for (auto& slot : slots_)
      if (slot->running == id) slot->cancel = true;
    const auto it =
        std::find_if(queue_.begin(), queue_.end(), [&](const LeafJob& j) { return j.id == id; });
    if (it != queue_.end()) {
      answers_.push_back(nothing_proven(*it));
      queue_.erase(it);
    }
  }
  answered_.notify_all();
}

std::vector<LeafAnswer> SlotPool::take(double seconds) {
  std::unique_lock lock(mutex_);
  answered_.wait_for(lock, std::chrono::duration<double>(seconds),
                     [&] { return !answers_.empty(); });
  return std::exchange(answers_, {});
}

void SlotPool::grow(std::unique_lock<std::mutex>& lock) {
  quiet_.wait(lock, [&] { return searching_ == 0 || closing_ || !table_.growth_wanted(); });
  if (closing_ || !table_.growth_wanted()) return;
  table_.split(0, table_.grow_shared());  // holding the lock: no slot starts a search meanwhile
  work_.notify_all();
}

void SlotPool::run(Slot& slot) {
  Solver& solver = *slot.solver;
  for (;;) {
    LeafJob job;
    {
      std::unique_lock lock(mutex_);
      work_.wait(lock, [&] { return closing_ || !queue_.empty(); });
      if (closing_) return;
      job = queue_.front();
      queue_.pop_front();
      slot.running = job.id;
      slot.cancel = false;
      ++searching_;
    }
    LeafAnswer a = nothing_proven(job);
    const uint64_t nodes = solver.nodes(), probes = solver.probes();
    const auto start = std::chrono::steady_clock::now();
    bool again = false;  // stopped for the table to grow
    try {
      const int r = solver.search(job.board, job.beta - 1, job.beta);
      (r >= job.beta ? a.lower : a.upper) = static_cast<int16_t>(r);
    } catch (const SearchInterrupted&) {  // cancelled or stopped: nothing proven
      again = !slot.cancel && !(stop_ && stop_->load()) && table_.shared() &&
              table_.growth_wanted();
    }
    a.nodes = solver.nodes() - nodes + slot.carried.nodes;
    a.probes = solver.probes() - probes + slot.carried.probes;
    a.microseconds = static_cast<uint64_t>(seconds_since(start) * 1e6) + slot.carried.microseconds;
    std::unique_lock lock(mutex_);
    slot.running = 0;
    --searching_;
    quiet_.notify_all();
    if (again) {
      slot.carried = a;
      queue_.push_front(job);
    } else {
      slot.carried = {};
      answers_.push_back(a);
      answered_.notify_all();
    }
    if (table_.shared() && table_.growth_wanted()) grow(lock);
  }
}

LocalTransport::LocalTransport(const Rules& rules, const LeafValues* leaves, int processes,
                               int slots, size_t table_bytes, const std::atomic<bool>* stop) {
  for (int p = 0; p < processes; ++p)
    pools_.push_back(std::make_unique<SlotPool>(rules, leaves, slots, table_bytes, stop));
}

void LocalTransport::submit(int process, const LeafJob& job) {
  pools_[process]->submit(job);
}

void LocalTransport::cancel(int process, uint64_t id) {
  pools_[process]->cancel(id);
}

std::vector<LeafAnswer> LocalTransport::exchange(double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::vector<LeafAnswer> in;
  do {
    for (auto& pool : pools_) {
      std::vector<LeafAnswer> some = pool->take(pool == pools_[0] ? 0.0002 : 0);
      in.insert(in.end(), some.begin(), some.end());
    }
  } while (in.empty() && std::chrono::steady_clock::now() < deadline);
  return in;
}

// ---------------------------------------------------------------------------------------------
// The manager.

FrontierSearch::FrontierSearch(const Rules& rules, const LeafValues* leaves,
                               JobTransport& transport, const std::atomic<bool>* stop,
                               const FrontierOptions& options)
    : rules_(rules), leaves_(leaves), transport_(transport), stop_(stop), options_(options) {
  validate(rules);
  for (int p = 0; p < transport.processes(); ++p) slots_ += transport.slots(p);
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

void FrontierSearch::expand(int n, int home) {
  if (!nodes_[n].leaf || nodes_[n].bounds.exact()) return;
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
}

void FrontierSearch::grow(int root) {
  const size_t target = static_cast<size_t>(options_.leaves_per_slot) * slots_;
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
    for (int n : open) expand(n, nodes_[n].home);
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

void FrontierSearch::take(const std::vector<LeafAnswer>& answers) {
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
    if (a.nodes >= std::max(kSplitNodes, stats_.nodes / (2 * slots_))) split(f.node, f.process);
  }
}

void FrontierSearch::split(int n, int home) {
  if (!nodes_[n].leaf || nodes_[n].bounds.exact()) return;
  expand(n, home);
  ++stats_.splits;
}

bool FrontierSearch::split_oldest() {
  const auto now = std::chrono::steady_clock::now();
  uint64_t oldest = 0;
  for (const auto& [id, f] : flights_)
    if (!f.cancelled && nodes_[f.node].leaf &&
        std::chrono::duration<double>(now - f.sent).count() >= kSplitSeconds &&
        (!oldest || f.sent < flights_[oldest].sent))
      oldest = id;
  if (!oldest) return false;
  Flight& f = flights_[oldest];
  transport_.cancel(f.process, oldest);
  f.cancelled = true;
  --in_flight_[f.process];
  ++stats_.cancelled;
  split(f.node, f.process);
  return true;
}

Bounds FrontierSearch::test(int n, int beta) {
  const auto key = [](int node, int b) {
    return static_cast<uint64_t>(node) << 32 | static_cast<uint32_t>(b);
  };
  for (;;) {
    const Bounds b = refreshed(n);
    if (b.lower >= beta || b.upper < beta) return b;
    if (stop_ && stop_->load()) throw SearchInterrupted();
    // What the test needs, then what would keep idle slots busy.
    std::vector<Wanted> want;
    ++pass_;
    select(n, beta, false, true, want);
    const size_t needed = want.size();
    ++pass_;
    select(n, beta, true, true, want);
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
    // A job goes to its leaf's home while it has an idle slot. A job the test needs may also
    // wait there (two a slot at most), unless another process has an idle slot: that one takes
    // it and becomes the leaf's home. Speculative jobs only fill idle slots of their homes.
    const int processes = transport_.processes();
    const auto idle = [&](int p) { return in_flight_[p] < transport_.slots(p); };
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
    // A process idles while a job runs long: that job's leaf becomes its children, which the
    // next round spreads.
    bool idle_process = false;
    for (int p = 0; p < processes; ++p) idle_process |= idle(p);
    if (idle_process && split_oldest()) continue;
    take(transport_.exchange(0.05));
    stats_.bytes = transport_.bytes();
  }
}

void FrontierSearch::finish() {
  for (auto& [id, f] : flights_)
    if (!f.cancelled) {
      transport_.cancel(f.process, id);
      f.cancelled = true;
      --in_flight_[f.process];
    }
  while (!flights_.empty()) take(transport_.exchange(0.05));
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
  grow(n);
  Bounds bounds = refreshed(n);
  mtdf(
      bounds, std::clamp(0, bounds.lower, bounds.upper),
      [&](int beta) { return test(n, beta); },
      [&](const Bounds& so_far) { return !after_test || after_test(so_far); });
  return bounds;
}

bool FrontierSearch::reaches(const Board& b, int pit, int v) {
  const MoveResult r = play(rules_, b, pit);
  const int c = node_of(r.board);
  grow(c);
  return move_bounds(r, test(c, child_window(r, v - 1, v).beta)).lower >= v;
}

std::vector<MoveBounds> FrontierSearch::moves(const Board& b) {
  std::vector<MoveBounds> out;
  const auto it = index_.find(b);
  if (it == index_.end()) return out;
  refreshed(it->second);
  for (const Edge& e : nodes_[it->second].edges) {
    const Bounds mb = move_bounds(e.result, nodes_[e.child].bounds);
    out.push_back({e.pit, mb.lower, mb.upper});
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
  return out;
}

void FrontierSearch::restore(const std::vector<TranspositionTable::Entry>& entries) {
  for (const TranspositionTable::Entry& e : entries) known_[e.key] = {e.lo, e.hi};
}

// ---------------------------------------------------------------------------------------------
// Value and analysis.

namespace {

// Saves the DAG's bounds every checkpoint->seconds (between tests: the manager's state is in
// no thread's hands then), and once at the end.
class FrontierSaves {
 public:
  FrontierSaves(FrontierSearch& search, const Board& root, const Checkpointing* checkpoint,
                uint64_t earlier)
      : search_(search), root_(root),
        checkpoint_(checkpoint && checkpoint->save ? checkpoint : nullptr), earlier_(earlier) {}
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
    due_ = std::chrono::steady_clock::now() + std::chrono::duration_cast<
        std::chrono::steady_clock::duration>(std::chrono::duration<double>(checkpoint_->seconds));
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

}  // namespace

ParallelValue value_frontier(const Rules& rules, const Position& p, const LeafValues* leaves,
                             JobTransport& transport, const std::atomic<bool>* stop,
                             const FrontierOptions& options, const ValueProgress& progress,
                             const Checkpointing* checkpoint, FrontierStats* stats) {
  ParallelValue out;
  const int stores = p.mover_store - p.opponent_store;
  if (is_terminal(rules, p.board)) {
    out.lower = out.upper = stores + terminal_value(rules, p.board);
    return out;
  }
  FrontierSearch search(rules, leaves, transport, stop, options);
  out.earlier_nodes = resume(search, checkpoint);
  FrontierSaves saves(search, p.board, checkpoint, out.earlier_nodes);
  Bounds bounds;
  try {
    bounds = search.value(p.board, [&](const Bounds& so_far) {
      saves.maybe();
      if (stats) *stats = search.stats();  // for the progress report
      if (progress) {
        ParallelValue v;
        v.nodes = search.stats().nodes;
        v.lower = stores + so_far.lower;
        v.upper = stores + so_far.upper;
        progress(v);
      }
      return true;
    });
    for (int pit = 0; pit < rules.pits && out.best_pit < 0; ++pit)
      if (p.board.pits[pit] > 0 && search.reaches(p.board, pit, bounds.lower)) out.best_pit = pit;
  } catch (const SearchInterrupted&) {
    out.interrupted = true;
    bounds = search.bounds(p.board);
  }
  search.finish();
  saves.now();
  out.nodes = search.stats().nodes;
  out.probes = search.stats().probes;
  out.lower = stores + bounds.lower;
  out.upper = stores + bounds.upper;
  if (stats) *stats = search.stats();
  return out;
}

ParallelAnalysis analyse_frontier(const Rules& rules, const Position& p, const LeafValues* leaves,
                                  JobTransport& transport, const std::atomic<bool>* stop,
                                  const FrontierOptions& options, const Checkpointing* checkpoint,
                                  FrontierStats* stats) {
  ParallelAnalysis out;
  FrontierSearch search(rules, leaves, transport, stop, options);
  out.earlier_nodes = resume(search, checkpoint);
  FrontierSaves saves(search, p.board, checkpoint, out.earlier_nodes);
  const auto value = [&](const Board& b) {
    const Bounds v = search.value(b, [&](const Bounds&) {
      saves.maybe();
      return true;
    });
    return v.lower;
  };
  const auto reaches = [&](const Board& b, int pit, int v) { return search.reaches(b, pit, v); };
  const int stores = p.mover_store - p.opponent_store;
  try {
    out.analysis = analyse(rules, p, value, reaches);
    out.lower = out.upper = out.analysis.value;
  } catch (const SearchInterrupted&) {
    out.interrupted = true;
    const Bounds b = search.bounds(p.board);
    out.lower = stores + b.lower;
    out.upper = stores + b.upper;
  }
  search.finish();
  saves.now();
  out.nodes = search.stats().nodes;
  out.probes = search.stats().probes;
  if (stats) *stats = search.stats();
  return out;
}

}  // namespace kalah
