// layer_solver.cpp: computing one layer in parallel: row pairs, Φ order, batched child lookups.
#include "db/layer_solver.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstring>
#include <stdexcept>

#include "db/value_code.h"
#include "solver/value.h"

namespace kalah {
namespace {

constexpr int kBatch = 32;        // boards whose children are prefetched together
constexpr size_t kTileRows = 16;  // y rows crossed with a whole group of x rows

// The rows of m pits holding k seeds, in processing order: by Φ (seeds weighted by distance from
// the far end) descending, ties by rank. Same-layer moves raise a row's Φ, so every row a move
// leads to comes earlier; `group_end[g]` closes the g-th run of rows of equal Φ.
struct RowOrder {
  std::vector<uint64_t> rows;  // pack_row
  std::vector<uint64_t> ranks;
  std::vector<size_t> group_end;

  RowOrder(const Ranker& ranker, int k) {
    const int m = ranker.pits();
    std::vector<std::pair<int, uint64_t>> order;  // (-Φ, rank)
    std::array<uint8_t, kMaxPits> row{};
    ranker.first_row(k, row.data());
    uint64_t rank = 0;
    do {
      order.emplace_back(-row_potential(row.data(), m), rank++);
    } while (ranker.next_row(row.data()));
    std::sort(order.begin(), order.end());
    for (size_t i = 0; i < order.size(); ++i) {
      ranker.row_unrank(k, order[i].second, row.data());
      rows.push_back(pack_row(row.data(), m));
      ranks.push_back(order[i].second);
      if (i + 1 == order.size() || order[i + 1].first != order[i].first) group_end.push_back(i + 1);
    }
  }
};

// Computes boards in batches: first every child of every board of the batch is located and its
// byte prefetched, then the values are read. Lookups into big layers miss the caches; this lets
// the misses of a whole batch overlap instead of paying them one after another.
class BatchSolver {
 public:
  BatchSolver(const Rules& rules, const Ranker& ranker, int s,
              const std::vector<const uint8_t*>& layers, uint8_t* out)
      : rules_(rules), ranker_(ranker), s_(s), layers_(layers), out_(out) {}

  // Queues board (mover row `mover`, opponent row `opponent` with their ranks, k seeds in the
  // mover's row); all boards it depends on must be computed or queued before it.
  void add(uint64_t mover, uint64_t opponent, int k, uint64_t mover_rank, uint64_t opponent_rank) {
    const int m = rules_.pits;
    Pending& p = pending_[count_++];
    const Board b = board_of_rows(mover, opponent, m);
    p.rank = ranker_.rank_of_rows(s_, k, mover_rank, opponent_rank);
    p.children = 0;
    if (is_terminal(rules_, b)) {
      p.best = terminal_value(rules_, b);
    } else {
      p.best = INT_MIN;
      for (int pit = 0; pit < m; ++pit) {
        const int n = b.pits[pit];
        if (n == 0) continue;
        const MoveResult mr = play(rules_, b, pit);
        const Board& c = mr.board;
        if (is_terminal(rules_, c)) {
          p.best = std::max(p.best, move_value(mr, terminal_value(rules_, c)));
          continue;
        }
        // A sowing that stops at or before the store and captures nothing keeps the opponent's
        // row: its rank is known. It is the child's opponent row after an extra turn, its mover
        // row otherwise.
        const bool kept = n <= m - pit && !mr.capture;
        const uint64_t child_mover =
            kept && !mr.extra_turn ? opponent_rank : ranker_.row_rank(&c.pits[0]);
        const uint64_t child_opponent =
            kept && mr.extra_turn ? opponent_rank : ranker_.row_rank(&c.pits[m]);
        const int cs = s_ - mr.gain;
        const uint8_t* at =
            layers_[cs] + ranker_.rank_of_rows(cs, mover_seeds(c, m), child_mover, child_opponent);
        __builtin_prefetch(at);
        p.child[p.children++] = {at, static_cast<int16_t>(mr.gain), mr.extra_turn,
                                 static_cast<uint8_t>(cs)};
      }
    }
    if (count_ == kBatch) flush();
  }

  // Computes every queued board.
  void flush() {
    for (int i = 0; i < count_; ++i) {
      Pending& p = pending_[i];
      int best = p.best;
      for (int j = 0; j < p.children; ++j) {
        const Child& c = p.child[j];
        const uint8_t e = *c.at;
        if (e == kUnknownValue) throw std::logic_error("builder read a value not computed yet");
        best = std::max(best, move_value(c.extra_turn, c.gain, decode_value(rules_, c.layer, e)));
      }
      out_[p.rank] = encode_value(rules_, s_, best);
    }
    count_ = 0;
  }

 private:
  struct Child {
    const uint8_t* at;
    int16_t gain;
    bool extra_turn;
    uint8_t layer;
  };
  struct Pending {
    uint64_t rank;
    int best;  // over the terminal children
    int children;
    Child child[kMaxPits];
  };

  const Rules& rules_;
  const Ranker& ranker_;
  const int s_;
  const std::vector<const uint8_t*>& layers_;
  uint8_t* const out_;
  Pending pending_[kBatch];
  int count_ = 0;
};

// Computes the boards of layer s whose rows hold k and s-k seeds (both orders). Same-layer moves
// stay among these boards: (x, y) leads to (y, x') and (y, x) to (x, y') with x', y' of higher Φ.
// So the cells (x, y), x and y in Φ-descending order, are done row after row, and all cells of
// two groups of equal Φ are independent of each other: those are batched.
void compute_row_pair(const Rules& rules, const Ranker& ranker, int s, int k,
                      const std::vector<const uint8_t*>& layers, uint8_t* out,
                      const std::function<void(uint64_t)>& progress) {
  const RowOrder xs(ranker, k), ys(ranker, s - k);
  const bool self = 2 * k == s;  // x and y range over the same rows: each board once
  BatchSolver solver(rules, ranker, s, layers, out);
  size_t x_begin = 0;
  for (size_t x_end : xs.group_end) {
    size_t y_begin = 0;
    for (size_t y_end : ys.group_end) {
      // Cells of one pair of groups are independent: take them in tiles of a few x rows by a few
      // y rows. The children of (x, y) lie in slices picked by x or by y (the row a move leaves
      // alone or the row it feeds), which then stay cached across the tile.
      for (size_t x_tile = x_begin; x_tile < x_end; x_tile += kTileRows) {
        for (size_t y_tile = y_begin; y_tile < y_end; y_tile += kTileRows) {
          for (size_t i = x_tile; i < std::min(x_end, x_tile + kTileRows); ++i) {
            for (size_t j = y_tile; j < std::min(y_end, y_tile + kTileRows); ++j) {
              solver.add(xs.rows[i], ys.rows[j], k, xs.ranks[i], ys.ranks[j]);
              // In the self pair, board (y, x) belongs to cell (y, x) unless that one comes later.
              if (!self || j > i)
                solver.add(ys.rows[j], xs.rows[i], s - k, ys.ranks[j], xs.ranks[i]);
            }
          }
        }
      }
      solver.flush();  // the next cells may depend on these
      y_begin = y_end;
    }
    if (progress) progress((x_end - x_begin) * ys.rows.size() * (self ? 1 : 2));
    x_begin = x_end;
  }
}

}  // namespace

void compute_layer(const Rules& rules, const Ranker& ranker, int s,
                   const std::vector<const uint8_t*>& lower, uint8_t* out,
                   const std::function<void(uint64_t)>& progress) {
  const uint64_t size = ranker.layer_size(s);
  std::memset(out, kUnknownValue, size);
  std::vector<const uint8_t*> layers = lower;
  layers.resize(s + 1);
  layers[s] = out;
  // Row pairs (k, s-k) are independent: largest first, so the threads finish together.
  std::vector<int> ks;
  for (int k = 0; 2 * k <= s; ++k) ks.push_back(k);
  std::sort(ks.begin(), ks.end(), [&](int a, int b) {
    return ranker.row_count(a) * ranker.row_count(s - a) >
           ranker.row_count(b) * ranker.row_count(s - b);
  });
  std::atomic<uint64_t> done{0};
  tbb::parallel_for(
      size_t{0}, ks.size(), size_t{1},
      [&](size_t i) {
        compute_row_pair(rules, ranker, s, ks[i], layers, out, [&](uint64_t boards) {
          const uint64_t total = done.fetch_add(boards) + boards;
          if (progress) progress(total);
        });
      },
      tbb::simple_partitioner());
  if (std::memchr(out, kUnknownValue, size))
    throw std::logic_error("builder left a board uncomputed");
}

}  // namespace kalah
