// proof.cpp: the proof walk of proof.h, the mover's moves found by the solver's null-window tests.
#include "solver/proof.h"

#include <stdexcept>

namespace kalah {

ProofWriter::ProofWriter(const Rules& rules, const LeafValues* leaves, size_t table_bytes)
    : rules_(rules),
      leaves_(leaves),
      leaf_seeds_(leaves ? leaves->max_seeds() : -1),
      solver_(rules, table_bytes, leaves) {}

void ProofWriter::prove(const Board& b, int v) {
  at_least(b, v);
  at_most(b, v);
}

std::optional<int> ProofWriter::known_value(const Board& b) {
  if (is_terminal(rules_, b)) return terminal_value(rules_, b);
  if (seeds(b) > leaf_seeds_) return std::nullopt;
  ++leaves_read_;
  return leaves_->value(b);
}

void ProofWriter::counted() {
  if ((++positions_ & 0xFFFF) == 0 && progress_) progress_(positions_);
}

static void claim_fails() {
  throw std::logic_error("the proof fails: a board is not worth the value claimed");
}

void ProofWriter::at_least(const Board& b, int r) {
  if (r <= -seeds(b)) return;
  if (const std::optional<int> v = known_value(b)) {
    if (*v < r) claim_fails();
    return;
  }
  if (const auto it = lower_.find(b); it != lower_.end() && it->second >= r) return;
  const int pit = solver_.proving_move(b, r);
  if (pit < 0) claim_fails();
  moves_.push_back(static_cast<uint8_t>(pit));
  counted();
  const MoveResult m = play(rules_, b, pit);
  if (m.extra_turn)
    at_least(m.board, r - m.gain);
  else
    at_most(m.board, m.gain - r);
  int& proven = lower_.try_emplace(b, r).first->second;  // looked up again: the walk rehashes
  proven = std::max(proven, r);
}

void ProofWriter::at_most(const Board& b, int r) {
  if (r >= seeds(b)) return;
  if (const std::optional<int> v = known_value(b)) {
    if (*v > r) claim_fails();
    return;
  }
  if (const auto it = upper_.find(b); it != upper_.end() && it->second <= r) return;
  counted();
  for (int pit = 0; pit < rules_.pits; ++pit) {
    if (b.pits[pit] == 0) continue;
    const MoveResult m = play(rules_, b, pit);
    if (m.extra_turn)
      at_most(m.board, r - m.gain);
    else
      at_least(m.board, m.gain - r);
  }
  int& proven = upper_.try_emplace(b, r).first->second;
  proven = std::min(proven, r);
}

}  // namespace kalah
