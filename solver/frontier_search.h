// frontier_search.h: a search spread over processes (docs/design.md §7, "Over several
// processes"); mpi/search.h carries it over MPI.
//
// A manager (process 0) expands the top of the tree into a DAG of boards, the frontier, whose
// leaves are searched elsewhere: a job is one null-window test "is V(b) at least beta?" on a
// leaf, run by one of the search threads ("slots") of the process that is the leaf's home, over
// that process's table, so that the tests MTD(f) repeats on a leaf find its subtree there. The
// manager runs MTD(f) over the DAG: a test dispatches the leaves it needs, the eldest child of a
// node first and its younger brothers in parallel once the eldest failed (Young Brothers Wait),
// fills idle slots with leaves likely to be needed, cancels the jobs an answer made moot, splits
// the leaves whose jobs are large, and keeps every bound proven, across tests and in
// checkpoints. Only proven bounds move, so the values never depend on the number of processes
// or threads, or on the order answers arrive in.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "solver/analysis.h"
#include "solver/leaf_values.h"
#include "solver/parallel_search.h"
#include "solver/value.h"

namespace kalah {

// "Is V(board) at least beta?" (32 bytes on the wire).
struct LeafJob {
  uint64_t id;
  Board board;
  int32_t beta;
  int32_t unused = 0;
};
// What a job proved: lower <= V(board) <= upper (nothing, -s and s, when it was cancelled), and
// what it cost (40 bytes on the wire).
struct LeafAnswer {
  uint64_t id;
  int16_t lower, upper;
  uint32_t unused = 0;
  uint64_t nodes = 0, probes = 0;
  uint64_t microseconds = 0;
};
static_assert(sizeof(LeafJob) == 32 && sizeof(LeafAnswer) == 40);

// The process the subtree of a root move's board goes to first ("home"; the boards below it
// inherit it, their subtrees transpose), until an idle process takes a job its home had no
// thread for and becomes that leaf's home. A hash of its own: the tables' buckets take the low
// bits of theirs, which a process's boards would then share.
uint64_t owner_hash(const Board& b);
inline int owner_process(const Board& b, int processes) {
  return static_cast<int>(owner_hash(b) % processes);
}

// One process's search threads ("slots"), over one table as a value search's threads are
// (shared, ABDADA, when there are several; it grows as it fills, up to table_bytes), running
// the jobs given to the process in order. Thread-safe.
class SlotPool {
 public:
  SlotPool(const Rules& rules, const LeafValues* leaves, int slots, size_t table_bytes,
           const std::atomic<bool>* stop);
  ~SlotPool();
  SlotPool(const SlotPool&) = delete;
  SlotPool& operator=(const SlotPool&) = delete;

  int slots() const { return static_cast<int>(slots_.size()); }
  void submit(const LeafJob& job);
  // Drops the job if it waits, stops it if it runs (its answer then proves nothing).
  void cancel(uint64_t id);
  // The answers ready, waiting up to `seconds` for one.
  std::vector<LeafAnswer> take(double seconds);

 private:
  struct Slot;
  void run(Slot& slot);
  // Called by a slot whose search a full shared table stopped: grows it once no slot searches.
  void grow(std::unique_lock<std::mutex>& lock);

  TranspositionTable table_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::mutex mutex_;  // the queue, the answers, each slot's running job, searching_
  std::condition_variable work_, answered_, quiet_;
  std::deque<LeafJob> queue_;
  std::vector<LeafAnswer> answers_;
  const std::atomic<bool>* stop_;
  int searching_ = 0;  // slots in a search
  bool closing_ = false;
};

// Where jobs go: MPI's processes (mpi/search.h) or pools in this process (LocalTransport).
class JobTransport {
 public:
  virtual ~JobTransport() = default;
  virtual int processes() const = 0;
  virtual int slots(int process) const = 0;  // its search threads
  virtual void submit(int process, const LeafJob& job) = 0;
  virtual void cancel(int process, uint64_t id) = 0;
  // Sends what was submitted and cancelled, then returns the answers that came in, waiting up to
  // `seconds` for one.
  virtual std::vector<LeafAnswer> exchange(double seconds) = 0;
  // Bytes sent both ways so far (0 within a process).
  virtual uint64_t bytes() const { return 0; }
};

// P processes simulated by P pools of this process (one process's distributed search, tests).
class LocalTransport final : public JobTransport {
 public:
  LocalTransport(const Rules& rules, const LeafValues* leaves, int processes, int slots,
                 size_t table_bytes, const std::atomic<bool>* stop);
  int processes() const override { return static_cast<int>(pools_.size()); }
  int slots(int process) const override { return pools_[process]->slots(); }
  void submit(int process, const LeafJob& job) override;
  void cancel(int process, uint64_t id) override;
  std::vector<LeafAnswer> exchange(double seconds) override;

 private:
  std::vector<std::unique_ptr<SlotPool>> pools_;
};

struct FrontierOptions {
  int leaves_per_slot = 16;  // the frontier grows a ply at a time until it has this many a slot
  int max_depth = 12;        // plies, at most
};

// Counts of a frontier search, for progress and notes.
struct FrontierStats {
  uint64_t nodes = 0;  // searched by the slots, answers of cancelled jobs included
  uint64_t probes = 0;
  std::vector<uint64_t> nodes_by_process;
  double busy_seconds = 0;  // the slots' time in jobs, all added up
  uint64_t jobs = 0, cancelled = 0, splits = 0, bytes = 0;
  size_t dag_nodes = 0, leaves = 0;
};

class FrontierSearch {
 public:
  FrontierSearch(const Rules& rules, const LeafValues* leaves, JobTransport& transport,
                 const std::atomic<bool>* stop, const FrontierOptions& options = {});

  // MTD(f) on V(b): the bounds proven, exact unless after_test (called after each test with
  // the bounds so far) returned false. Throws SearchInterrupted when stop is raised.
  Bounds value(const Board& b, const std::function<bool(const Bounds&)>& after_test = {});
  // Whether playing pit on b is worth at least v to the mover.
  bool reaches(const Board& b, int pit, int v);
  // What is proven on V(b) so far, and on each of its moves' values (stores left out; none when
  // b is not a node with children).
  Bounds bounds(const Board& b);
  std::vector<MoveBounds> moves(const Board& b);
  // Cancels the jobs still out and takes their answers: the transport can serve another search.
  void finish();

  // Every bound proven on a board of the DAG (a checkpoint's entries), and their restoration.
  std::vector<TranspositionTable::Entry> proven() const;
  void restore(const std::vector<TranspositionTable::Entry>& entries);
  const FrontierStats& stats() const { return stats_; }

 private:
  struct Edge {
    MoveResult result;
    int pit, child;
  };
  struct Node {
    Board board;
    Bounds bounds;
    bool leaf = true;
    std::vector<Edge> edges;
    unsigned seen = 0;  // the last refresh or select pass that visited it
    int home = -1;      // where its next job goes first (its last job's process)
  };
  struct Flight {
    int node, beta, process;
    std::chrono::steady_clock::time_point sent;
    bool cancelled = false;  // no longer counted against the process's room
  };
  struct Wanted {
    int node, beta;
  };

  // A leaf whose job searched at least this many nodes, and at least a 2·slots-th of all so far,
  // is expanded; so is one whose job has run this long while a process idles.
  static constexpr uint64_t kSplitNodes = uint64_t{1} << 20;
  static constexpr double kSplitSeconds = 0.5;

  int node_of(const Board& b);
  // Makes leaf n a node with its children; those new to the DAG start on `home` (the leaf's
  // process: its table holds their subtrees), or by their hash when it is -1.
  void expand(int n, int home);
  void grow(int root);
  // Narrows the bounds of n's subtree from its leaves (each node once a pass).
  Bounds refresh(int n);
  // refresh(n) in a pass of its own.
  Bounds refreshed(int n) {
    ++pass_;
    return refresh(n);
  }
  // The leaves whose tests decide "V(n) >= beta", in the order they should run: the eldest
  // child first, the others once it failed; eager, also those likely to be needed (n is
  // expected to pass the test if `cut`).
  void select(int n, int beta, bool eager, bool cut, std::vector<Wanted>& out);
  // One null-window test on node n.
  Bounds test(int n, int beta);
  void take(const std::vector<LeafAnswer>& answers);
  // Expands leaf n, whose children start on `home`.
  void split(int n, int home);
  // Cancels the oldest job older than kSplitSeconds, if any, and splits its leaf: true if done.
  bool split_oldest();

  Rules rules_;
  const LeafValues* leaves_;
  JobTransport& transport_;
  const std::atomic<bool>* stop_;
  FrontierOptions options_;
  int slots_ = 0;
  std::vector<Node> nodes_;
  struct Hash {
    size_t operator()(const Board& b) const { return owner_hash(b); }
  };
  std::unordered_map<Board, int, Hash> index_;
  std::unordered_map<Board, Bounds, Hash> known_;  // restored from a checkpoint
  std::unordered_map<uint64_t, Flight> flights_;  // jobs sent and not answered, by id
  std::vector<int> in_flight_;                    // per process, cancelled jobs left out
  uint64_t next_id_ = 1;
  unsigned pass_ = 0;
  FrontierStats stats_;
};

// value_parallel and analyse_parallel (parallel_search.h) over a frontier search. Checkpoints
// keep the DAG's bounds (no pause: the manager's state is its own), saved between tests.
// `stats`, if given, gets the search's counts at the end (and, for the value, before each
// progress call).
ParallelValue value_frontier(const Rules& rules, const Position& p, const LeafValues* leaves,
                             JobTransport& transport, const std::atomic<bool>* stop,
                             const FrontierOptions& options, const ValueProgress& progress = {},
                             const Checkpointing* checkpoint = nullptr,
                             FrontierStats* stats = nullptr);
ParallelAnalysis analyse_frontier(const Rules& rules, const Position& p, const LeafValues* leaves,
                                  JobTransport& transport, const std::atomic<bool>* stop,
                                  const FrontierOptions& options,
                                  const Checkpointing* checkpoint = nullptr,
                                  FrontierStats* stats = nullptr);

}  // namespace kalah
