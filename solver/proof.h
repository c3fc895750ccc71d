// proof.h: a proof of a board's value that another program can check (docs/design.md §8).
//
// V(b) >= v is proven by a strategy for the mover: one move at each of the mover's turns, every
// reply at the opponent's, down to finished games and the leaves' boards; V(b) <= v by the same
// for the opponent. The proof is the list of the strategy's moves in the order a checker meets
// them, walking both proofs depth first:
//
//   at_least(b, r), "V(b) >= r":  r <= -seeds(b): true; b finished or in the leaves: its value
//     checked; already proven with a bound >= r (the same board): true; otherwise the next move
//     of the list, played: an extra turn asks at_least(child, r - gain), else
//     at_most(child, gain - r).
//   at_most(b, r), "V(b) <= r":   the same tests (r >= seeds(b): true), then every move in pit
//     order: an extra turn asks at_most(child, r - gain), else at_least(child, gain - r).
//
// A bound is remembered for the board once its proof is complete, with the strongest bound
// proven so far; at_least(root, v) comes first, then at_most(root, v), over one memory. The
// walk is the format: a checker that follows it reads exactly the moves written here.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "game/rules.h"
#include "game/leaf_values.h"
#include "solver/solver.h"

namespace kalah {

class ProofWriter {
 public:
  // `leaves` may be null (a proof to the ends of the game).
  ProofWriter(const Rules& rules, const LeafValues* leaves, size_t table_bytes);

  void set_stop_flag(const StopFlag* stop) { solver_.set_stop_flag(stop); }
  // Called every 2^16 positions with the count so far, for progress on long proofs.
  void set_progress(std::function<void(uint64_t positions)> progress) {
    progress_ = std::move(progress);
  }

  // Appends the proof that V(b) == v to moves(). Throws std::logic_error when v is not V(b),
  // SearchInterrupted when stopped.
  void prove(const Board& b, int v);

  const std::vector<uint8_t>& moves() const { return moves_; }  // 0-based pits
  uint64_t positions() const { return positions_; }  // boards whose moves the proof expands
  uint64_t leaves() const { return leaves_read_; }   // boards read from the leaves (repeats too)
  uint64_t search_nodes() const { return solver_.nodes(); }  // finding the mover's moves

 private:
  using Proven = std::unordered_map<Board, int, BoardHash>;

  // V(b) when b is finished or in the leaves.
  std::optional<int> known_value(const Board& b);
  void at_least(const Board& b, int r);
  void at_most(const Board& b, int r);
  void counted();

  Rules rules_;
  const LeafValues* leaves_;
  int leaf_seeds_;
  Solver solver_;
  Proven lower_, upper_;  // the strongest bound proven for each board
  std::vector<uint8_t> moves_;
  uint64_t positions_ = 0, leaves_read_ = 0;
  std::function<void(uint64_t)> progress_;
};

}  // namespace kalah
