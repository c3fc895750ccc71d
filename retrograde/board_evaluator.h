// board_evaluator.h: evaluating the boards of a layer being built, a batch at a time, from their
// children's values (docs/design.md §5). Header-only: its calls sit in the builder's inner loop.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "db/rank.h"
#include "db/value_code.h"
#include "game/rules.h"
#include "game/value.h"
#include "retrograde/far_children.h"
#include "retrograde/row_moves.h"

namespace kalah {

// Where a layer's children are read and its values written: raw layers, which of their boards
// are far (FarChildren: the layer is null or the boards are elsewhere), and the layer being
// computed.
struct Layers {
  std::vector<const uint8_t*> raw;
  std::vector<uint8_t> far;  // [t * (s + 1) + k]: boards of layer t with k seeds in the mover's row
  uint8_t* out;
  bool is_far(int t, int k) const { return far[t * raw.size() + k]; }
};

// Evaluates boards in batches: first every child of every board of the batch is located and its
// byte prefetched, then the values are read. Lookups into big layers miss the caches; this lets
// the misses of a whole batch overlap instead of paying them one after another.
//
// With far children (FarChildren) a tile is queued twice: first with `gather` set, which only
// lists the keys of its far children (far_key) and computes nothing, then with `far_values` set
// to their values, resolved in between, read in the same order.
class BoardEvaluator {
 public:
  BoardEvaluator(const Rules& rules, const Ranker& ranker, int s, const Layers& layers,
                 std::vector<uint64_t>* gather = nullptr, const uint8_t* far_values = nullptr)
      : rules_(rules),
        ranker_(ranker),
        s_(s),
        layers_(layers),
        out_(layers.out),
        gather_(gather),
        far_values_(far_values) {}

  // Queues board (row i of `mover`, row j of `opponent`); all boards it depends on must be
  // computed or queued before it.
  void add(const Rows& mover, size_t i, const Rows& opponent, size_t j) {
    const int m = rules_.pits, k = mover.set.k, ko = opponent.set.k;
    Pending& p = gather_ ? scratch_ : pending_[count_];
    p.rank = ranker_.rank_of_rows(s_, k, mover.set.ranks[i], opponent.set.ranks[j]);
    p.children = 0;
    if (is_terminal(rules_, k, ko)) {
      p.best = terminal_value(rules_, k, ko);
    } else {
      p.best = INT_MIN;
      const uint8_t* x = mover.set.row(i);
      for (int pit = 0; pit < m; ++pit)
        if (x[pit] > 0) add_child(p, mover, i, opponent, j, pit);
    }
    if (!gather_ && ++count_ == kBatch) flush();
  }

  // Evaluates every queued board.
  void flush() {
    for (int i = 0; i < count_; ++i) {
      Pending& p = pending_[i];
      int best = p.best;
      for (int j = 0; j < p.children; ++j) {
        const Child& c = p.child[j];
        const uint8_t e = c.far ? c.value : *c.at;
        if (e == kUnknownValue) throw std::logic_error("builder read a value not computed yet");
        best = std::max(best, move_value(c.extra_turn, c.gain, decode_value(rules_, c.layer, e)));
      }
      out_[p.rank] = encode_value(rules_, s_, best);
    }
    count_ = 0;
  }

 private:
  static constexpr int kBatch = 32;  // boards whose children are prefetched together

  struct Child {
    union {
      const uint8_t* at;  // the value's byte in a raw layer
      uint8_t value;      // the value itself, of a far child
    };
    int16_t gain;
    bool extra_turn;
    bool far;
    uint8_t layer;
  };
  struct Pending {
    uint64_t rank;
    int best;  // over the terminal children
    int children;
    Child child[kMaxPits];
  };

  // A child: `gain` seeds to the mover, then the board of layer s - gain whose mover row (ck
  // seeds, rank cm) and opponent row (rank co) are given.
  void child(Pending& p, int gain, bool extra_turn, int ck, uint64_t cm, uint64_t co) {
    const int cs = s_ - gain;
    if (is_terminal(rules_, ck, cs - ck)) {
      p.best = std::max(p.best, move_value(extra_turn, gain, terminal_value(rules_, ck, cs - ck)));
      return;
    }
    const bool far = layers_.is_far(cs, ck);
    if (gather_) {
      if (far) gather_->push_back(far_key(cs, ranker_.rank_of_rows(cs, ck, cm, co)));
      return;
    }
    Child& c = p.child[p.children++];
    c.gain = static_cast<int16_t>(gain);
    c.extra_turn = extra_turn;
    c.layer = static_cast<uint8_t>(cs);
    c.far = far;
    if (far) {
      c.value = *far_values_++;
    } else {
      c.at = layers_.raw[cs] + ranker_.rank_of_rows(cs, ck, cm, co);
      __builtin_prefetch(c.at);
    }
  }

  void add_child(Pending& p, const Rows& mover, size_t i, const Rows& opponent, size_t j, int pit) {
    const RowChild c = row_child(rules_, ranker_, mover, i, opponent, j, pit);
    child(p, c.gain, c.extra_turn, c.seeds, c.mover, c.opponent);
  }

  const Rules& rules_;
  const Ranker& ranker_;
  const int s_;
  const Layers& layers_;
  uint8_t* const out_;
  std::vector<uint64_t>* const gather_;
  const uint8_t* far_values_;
  Pending pending_[kBatch];
  Pending scratch_;  // the board being gathered
  int count_ = 0;
};

}  // namespace kalah
