// layer_solver.cpp: computing one layer in parallel: row pairs, Φ order, batched child lookups.
#include "db/layer_solver.h"

#include <tbb/parallel_for.h>
#include <tbb/parallel_for_each.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "db/row_moves.h"
#include "db/value_code.h"
#include "solver/value.h"

namespace kalah {
namespace {

constexpr int kBatch = 32;        // boards whose children are prefetched together
constexpr size_t kTileRows = 16;  // a tile: this many x rows by this many y rows

// Where a layer's children are read and its values written: raw layers (null where held
// compressed, read through `cold` instead), and the layer being computed.
struct Layers {
  std::vector<const uint8_t*> raw;
  const BlockCache* cold;
  uint8_t* out;
};

// One side of the boards of a row pair: a row set and the rows its moves leave.
struct Rows {
  RowSet set;
  RowMoves moves;
  Rows(const Ranker& ranker, int k) : set(ranker, k), moves(ranker, set) {}
};

// Computes boards in batches: first every child of every board of the batch is located and its
// byte prefetched, then the values are read. Lookups into big layers miss the caches; this lets
// the misses of a whole batch overlap instead of paying them one after another.
class BatchSolver {
 public:
  BatchSolver(const Rules& rules, const Ranker& ranker, int s, const Layers& layers)
      : rules_(rules),
        ranker_(ranker),
        s_(s),
        layers_(layers.raw),
        cold_(layers.cold),
        out_(layers.out) {}

  // Queues board (row i of `mover`, row j of `opponent`); all boards it depends on must be
  // computed or queued before it.
  void add(const Rows& mover, size_t i, const Rows& opponent, size_t j) {
    const int m = rules_.pits, k = mover.set.k, ko = opponent.set.k;
    Pending& p = pending_[count_++];
    p.rank = ranker_.rank_of_rows(s_, k, mover.set.ranks[i], opponent.set.ranks[j]);
    p.children = 0;
    if (terminal(k, ko)) {
      p.best = terminal_value(k, ko);
    } else {
      p.best = INT_MIN;
      const uint8_t* x = mover.set.row(i);
      for (int pit = 0; pit < m; ++pit)
        if (x[pit] > 0) add_child(p, mover, i, opponent, j, pit);
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
        const uint8_t e = c.cold ? cold_->value(c.layer, c.rank) : *c.at;
        if (e == kUnknownValue) throw std::logic_error("builder read a value not computed yet");
        best = std::max(best, move_value(c.extra_turn, c.gain, decode_value(rules_, c.layer, e)));
      }
      out_[p.rank] = encode_value(rules_, s_, best);
    }
    count_ = 0;
  }

 private:
  struct Child {
    union {
      const uint8_t* at;  // the value's byte in a raw layer
      uint64_t rank;      // the value's rank in a cold layer
    };
    int16_t gain;
    bool extra_turn;
    bool cold;
    uint8_t layer;
  };
  struct Pending {
    uint64_t rank;
    int best;  // over the terminal children
    int children;
    Child child[kMaxPits];
  };

  // The game is over for a mover with k seeds in their row against ko in the opponent's.
  bool terminal(int k, int ko) const {
    return k == 0 || (rules_.end == End::kImmediate && ko == 0);
  }
  int terminal_value(int k, int ko) const {
    return rules_.remainder == Remainder::kDiscard ? 0 : k - ko;
  }

  // A child: `gain` seeds to the mover, then the board of layer s - gain whose mover row (ck
  // seeds, rank cm) and opponent row (rank co) are given.
  void child(Pending& p, int gain, bool extra_turn, int ck, uint64_t cm, uint64_t co) {
    const int cs = s_ - gain;
    if (terminal(ck, cs - ck)) {
      p.best = std::max(p.best, move_value(extra_turn, gain, terminal_value(ck, cs - ck)));
      return;
    }
    const uint64_t rank = ranker_.rank_of_rows(cs, ck, cm, co);
    Child& c = p.child[p.children++];
    c.gain = static_cast<int16_t>(gain);
    c.extra_turn = extra_turn;
    c.layer = static_cast<uint8_t>(cs);
    c.cold = layers_[cs] == nullptr;  // a layer held compressed (lean mode): read in flush()
    if (c.cold) {
      c.rank = rank;
    } else {
      c.at = layers_[cs] + rank;
      __builtin_prefetch(c.at);
    }
  }

  // The child of sowing `pit` of the mover's row i: the rows it leaves come from the tables,
  // except for sowings that come back to the mover's row (n > 2m - pit), which are played.
  void add_child(Pending& p, const Rows& mover, size_t i, const Rows& opponent, size_t j, int pit) {
    const int m = rules_.pits, k = mover.set.k, ko = opponent.set.k;
    const uint8_t* x = mover.set.row(i);
    const int n = x[pit];
    const size_t at = i * m + pit;
    const uint64_t own = opponent.set.ranks[j];
    if (n < m - pit) {  // the last seed stays in the mover's row
      const int last = pit + n;
      const int opposite = m - 1 - last;
      const int captured = opponent.set.row(j)[opposite];
      if (x[last] == 0 && (captured > 0 || rules_.capture == Capture::kEmpty))
        return child(p, 1 + captured, false, ko - captured,
                     opponent.moves.emptied[j * m + opposite], mover.moves.sown_captured[at]);
      return child(p, 0, false, ko, own, mover.moves.sown[at]);
    }
    const int kept = k - n + (m - 1 - pit);  // seeds left in the mover's row
    if (n == m - pit) return child(p, 1, true, kept, mover.moves.sown[at], own);
    if (n <= 2 * m - pit)  // past the store into the opponent's first n - (m - pit) pits
      return child(p, 1, false, ko + n - (m - pit), opponent.moves.fed[j * m + n - (m - pit) - 1],
                   mover.moves.sown[at]);
    const Board b = board_of_rows(pack_row(x, m), pack_row(opponent.set.row(j), m), m);
    const MoveResult mr = play(rules_, b, pit);
    const Board& c = mr.board;
    child(p, mr.gain, mr.extra_turn, mover_seeds(c, m), ranker_.row_rank(&c.pits[0]),
          ranker_.row_rank(&c.pits[m]));
  }

  const Rules& rules_;
  const Ranker& ranker_;
  const int s_;
  const std::vector<const uint8_t*>& layers_;
  const BlockCache* const cold_;
  uint8_t* const out_;
  Pending pending_[kBatch];
  int count_ = 0;
};

// The boards of layer s whose rows hold k and s-k seeds (both orders). Same-layer moves stay
// among them: (x, y) leads to (y, x') and (y, x) to (x, y') with x', y' of higher Φ. Cell (x, y)
// holds both boards; a block is the cells of one group of equal-Φ x rows and one of y rows. The
// cells of a block are independent (taken in tiles, each a task), and block (gx, gy) needs only
// the blocks before it in each direction: the blocks run as a wavefront, in parallel along its
// anti-diagonals. In the self pair (2k = s) x and y range over the same rows and board (x_i, x_j)
// belongs to cell (min(i, j), max(i, j)), so every board is computed once.
class RowPair {
 public:
  RowPair(const Rules& rules, const Ranker& ranker, int s, int k)
      : rules_(rules), ranker_(ranker), s_(s), k_(k), xs_(ranker, k) {
    if (!self()) ys_own_.emplace(ranker, s - k);
  }

  int x_groups() const { return static_cast<int>(xs_.set.group_end.size()); }
  int y_groups() const { return static_cast<int>(ys().set.group_end.size()); }

  // Computes block (gx, gy) once every block before it in x and in y is done; returns the boards.
  uint64_t compute_block(int gx, int gy, const Layers& layers) const {
    const Range xr = range(xs_.set, gx), yr = range(ys().set, gy);
    const size_t x_tiles = (xr.end - xr.begin + kTileRows - 1) / kTileRows;
    const size_t y_tiles = (yr.end - yr.begin + kTileRows - 1) / kTileRows;
    std::atomic<uint64_t> boards{0};
    tbb::parallel_for(size_t{0}, x_tiles * y_tiles, [&](size_t t) {
      const size_t x0 = xr.begin + (t / y_tiles) * kTileRows,
                   y0 = yr.begin + (t % y_tiles) * kTileRows;
      BatchSolver solver(rules_, ranker_, s_, layers);
      boards += compute_tile(solver, x0, std::min(xr.end, x0 + kTileRows), y0,
                             std::min(yr.end, y0 + kTileRows));
      solver.flush();
    });
    return boards;
  }

  // The boards of the largest tile of block (gx, gy): the largest indivisible piece of work.
  uint64_t largest_tile(int gx, int gy) const {
    const Range xr = range(xs_.set, gx), yr = range(ys().set, gy);
    const uint64_t cells = std::min<size_t>(kTileRows, xr.end - xr.begin) *
                           std::min<size_t>(kTileRows, yr.end - yr.begin);
    return self() && gx > gy ? 0 : 2 * cells;  // at most two boards a cell
  }

 private:
  struct Range {
    size_t begin, end;
  };
  static Range range(const RowSet& r, int g) {
    return {g == 0 ? 0 : r.group_end[g - 1], r.group_end[g]};
  }
  bool self() const { return 2 * k_ == s_; }
  const Rows& ys() const { return self() ? xs_ : *ys_own_; }

  // Queues the cells of x rows [x0, x1) by y rows [y0, y1); returns the boards queued.
  uint64_t compute_tile(BatchSolver& solver, size_t x0, size_t x1, size_t y0, size_t y1) const {
    uint64_t boards = 0;
    for (size_t i = x0; i < x1; ++i) {
      for (size_t j = y0; j < y1; ++j) {
        if (self() && i > j) continue;  // both boards are in cell (j, i)
        solver.add(xs_, i, ys(), j);
        ++boards;
        if (self() && i == j) continue;
        solver.add(ys(), j, xs_, i);
        ++boards;
      }
    }
    return boards;
  }

  const Rules& rules_;
  const Ranker& ranker_;
  const int s_, k_;
  const Rows xs_;
  std::optional<Rows> ys_own_;  // the y rows, unless they are the x rows (self pair)
};

// Runs the blocks of a row pair as a wavefront: a block starts when the blocks before it in x and
// in y are done. `done(boards)` is called after each block.
void compute_row_pair(const RowPair& pair, const Layers& layers,
                      const std::function<void(uint64_t)>& done) {
  const int nx = pair.x_groups(), ny = pair.y_groups();
  // Blocks waiting for predecessors: 2 inside, 1 on the first row or column, 0 at the corner.
  std::vector<std::atomic<int>> waiting(static_cast<size_t>(nx) * ny);
  for (int gx = 0; gx < nx; ++gx)
    for (int gy = 0; gy < ny; ++gy) waiting[gx * ny + gy] = (gx > 0) + (gy > 0);
  const std::pair<int, int> corner{0, 0};
  tbb::parallel_for_each(&corner, &corner + 1,
                         [&](std::pair<int, int> block, tbb::feeder<std::pair<int, int>>& feeder) {
                           const auto [gx, gy] = block;
                           done(pair.compute_block(gx, gy, layers));
                           if (gx + 1 < nx && --waiting[(gx + 1) * ny + gy] == 0)
                             feeder.add({gx + 1, gy});
                           if (gy + 1 < ny && --waiting[gx * ny + gy + 1] == 0)
                             feeder.add({gx, gy + 1});
                         });
}

// The critical path of a row pair's wavefront in boards, each block counted as its largest tile
// (the time with unboundedly many threads).
uint64_t critical_path(const RowPair& pair) {
  const int nx = pair.x_groups(), ny = pair.y_groups();
  std::vector<uint64_t> path(static_cast<size_t>(nx) * ny);
  for (int gx = 0; gx < nx; ++gx)
    for (int gy = 0; gy < ny; ++gy)
      path[gx * ny + gy] = pair.largest_tile(gx, gy) + std::max(gx ? path[(gx - 1) * ny + gy] : 0,
                                                                gy ? path[gx * ny + gy - 1] : 0);
  return path.back();
}

}  // namespace

LayerWork compute_layer(const Rules& rules, const Ranker& ranker, int s,
                        const std::vector<const uint8_t*>& lower, const BlockCache* cold,
                        uint8_t* out, const std::function<void(uint64_t)>& progress) {
  const uint64_t size = ranker.layer_size(s);
  std::memset(out, kUnknownValue, size);
  Layers layers{lower, cold, out};
  layers.raw.resize(s + 1);
  layers.raw[s] = out;
  for (int t = 1; t < s; ++t)
    if (!layers.raw[t] && !cold) throw std::logic_error("builder has no source for a lower layer");
  // Row pairs (k, s-k) are independent: largest first, so the threads finish together.
  std::vector<int> ks;
  for (int k = 0; 2 * k <= s; ++k) ks.push_back(k);
  std::sort(ks.begin(), ks.end(), [&](int a, int b) {
    return ranker.row_count(a) * ranker.row_count(s - a) >
           ranker.row_count(b) * ranker.row_count(s - b);
  });
  std::atomic<uint64_t> done{0};
  LayerWork work;
  work.boards = size;
  std::mutex mutex;
  tbb::parallel_for(
      size_t{0}, ks.size(), size_t{1},
      [&](size_t i) {
        const RowPair pair(rules, ranker, s, ks[i]);
        compute_row_pair(pair, layers, [&](uint64_t boards) {
          const uint64_t total = done.fetch_add(boards) + boards;
          if (progress) progress(total);
        });
        uint64_t largest = 0;
        for (int gx = 0; gx < pair.x_groups(); ++gx)
          for (int gy = 0; gy < pair.y_groups(); ++gy)
            largest = std::max(largest, pair.largest_tile(gx, gy));
        std::lock_guard lock(mutex);
        work.largest_piece = std::max(work.largest_piece, largest);
        work.critical_path = std::max(work.critical_path, critical_path(pair));
      },
      tbb::simple_partitioner());
  if (done != size || std::memchr(out, kUnknownValue, size))
    throw std::logic_error("builder left a board uncomputed");
  return work;
}

}  // namespace kalah
