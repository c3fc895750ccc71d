// frontier_search.h: the manager of a search spread over processes (docs/design.md §7, "Over
// several processes"); parallel/frontier_analysis.h runs a value or a full analysis on it,
// mpi/search.h carries its jobs over MPI.
//
// The manager (process 0) expands the top of the tree into a DAG of boards, the frontier, whose
// leaves are searched elsewhere: a job (parallel/leaf_jobs.h) is one null-window test "is V(b) at
// least beta?" on a leaf, run by one of the search threads ("slots") of the process that is the
// leaf's home, over that process's table, so that the tests MTD(f) repeats on a leaf find its
// subtree there. The manager runs MTD(f) over the DAG: a test dispatches the leaves it needs,
// the eldest child of a node first and its younger brothers in parallel once the eldest failed
// (Young Brothers Wait), fills idle slots with leaves likely to be needed, cancels the jobs an
// answer made moot, refines the leaves whose jobs are large (they become their children), and
// keeps every bound proven, across tests and in checkpoints. Only proven bounds move, so the
// values never depend on the number of processes or threads, or on the order answers arrive in.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "parallel/leaf_jobs.h"
#include "parallel/search_run.h"

namespace kalah {

class FrontierSearch {
 public:
  // Uses the setup's rules, leaves and stop (the slots have the table).
  FrontierSearch(const SearchSetup& setup, JobTransport& transport,
                 const FrontierOptions& options = {});

  // MTD(f) on V(b): the bounds proven, exact unless after_test (called after each test with
  // the bounds so far) returned false. Throws SearchInterrupted when the stop flag is raised.
  Bounds value(const Board& b, const std::function<bool(const Bounds&)>& after_test = {});
  // Whether playing pit on b is worth at least v to the mover.
  bool reaches(const Board& b, int pit, int v);
  // What is proven on V(b) so far, and on each of its moves' values (stores left out; none when
  // b is not a node with children).
  Bounds bounds(const Board& b);
  std::vector<MoveBounds> moves(const Board& b);
  // Cancels the jobs still out and collects their answers: the transport can serve another
  // search.
  void finish();

  // Every bound proven on a board of the DAG or restored and not reached again (a checkpoint's
  // entries), and their restoration.
  std::vector<TranspositionTable::Entry> proven() const;
  void restore(const std::vector<TranspositionTable::Entry>& entries);
  const FrontierStats& stats() const { return stats_; }
  // Called between the rounds of a test (every 50 ms or so, with no answer half merged), so a
  // test that runs for hours still saves checkpoints and reports progress.
  void between_rounds(std::function<void()> f) { between_rounds_ = std::move(f); }

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
  // is refined; so is one whose job has run this long while a process idles.
  static constexpr uint64_t kRefineNodes = uint64_t{1} << 20;
  static constexpr double kRefineSeconds = 0.5;

  int node_of(const Board& b);
  // Makes leaf n a node with its children; those new to the DAG start on `home` (the leaf's
  // process: its table holds their subtrees), or by their hash when it is -1. False when n is no
  // open leaf or the DAG holds as many boards as its options allow.
  bool expand(int n, int home);
  // Expands the open leaves under root a ply at a time until there are enough for the slots.
  void deepen(int root);
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
  // Cancels the jobs in flight that `want` no longer lists; returns the keys (key()) of those
  // left.
  std::unordered_set<uint64_t> cancel_unwanted(const std::vector<Wanted>& want);
  // Sends the wanted jobs not yet in flight to processes with room; the first `needed` may wait
  // for a busy home or go to another process.
  void dispatch(const std::vector<Wanted>& want, size_t needed,
                std::unordered_set<uint64_t>& flying);
  static uint64_t key(int node, int beta) {
    return static_cast<uint64_t>(node) << 32 | static_cast<uint32_t>(beta);
  }
  bool idle(int process) const { return in_flight_[process] < transport_.slots(process); }
  void merge(const std::vector<LeafAnswer>& answers);
  // Leaf n, whose job was large, becomes its children, which start on `home`.
  void refine(int n, int home);
  // Cancels the oldest job older than `seconds`, if any, and refines its leaf: true if done.
  bool refine_oldest(double seconds);

  Rules rules_;
  const LeafValues* leaves_;
  JobTransport& transport_;
  const StopFlag* stop_;
  FrontierOptions options_;
  std::vector<Node> nodes_;
  struct Hash {
    size_t operator()(const Board& b) const { return owner_hash(b); }
  };
  std::unordered_map<Board, int, Hash> index_;
  std::unordered_map<Board, Bounds, Hash> known_;  // restored from a checkpoint
  std::unordered_map<uint64_t, Flight> flights_;   // jobs sent and not answered, by id
  std::vector<int> in_flight_;                     // per process, cancelled jobs left out
  uint64_t next_id_ = 1;
  unsigned pass_ = 0;
  FrontierStats stats_;
  std::function<void()> between_rounds_;
};

}  // namespace kalah
