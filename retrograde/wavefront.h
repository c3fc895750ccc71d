// wavefront.h: the schedule of a row pair's boards (docs/design.md §5): blocks of tiles, run as a
// wavefront in parallel.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "retrograde/board_evaluator.h"

namespace kalah {

inline constexpr size_t kTileRows = 16;  // a tile: this many x rows by this many y rows

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
      : rules_(rules),
        ranker_(ranker),
        s_(s),
        k_(k),
        xs_(ranker, k),
        // Constructed in place, not emplaced: gcc 12 -O2 with the sanitizers warns that emplace's
        // reset may read an uninitialized payload.
        ys_own_(self() ? std::nullopt : std::optional<Rows>(std::in_place, ranker, s - k)) {}

  const Rules& rules() const { return rules_; }
  const Ranker& ranker() const { return ranker_; }
  int seeds() const { return s_; }
  int x_groups() const { return static_cast<int>(xs_.set.group_end.size()); }
  int y_groups() const { return static_cast<int>(ys().set.group_end.size()); }

  // Block (gx, gy)'s tiles, each a task.
  size_t tile_count(int gx, int gy) const {
    const Range xr = range(xs_.set, gx), yr = range(ys().set, gy);
    return ((xr.end - xr.begin + kTileRows - 1) / kTileRows) *
           ((yr.end - yr.begin + kTileRows - 1) / kTileRows);
  }

  // Queues the boards of tile t of block (gx, gy); returns how many.
  uint64_t queue_tile(BoardEvaluator& evaluator, int gx, int gy, size_t t) const {
    const Range xr = range(xs_.set, gx), yr = range(ys().set, gy);
    const size_t y_tiles = (yr.end - yr.begin + kTileRows - 1) / kTileRows;
    const size_t x0 = xr.begin + (t / y_tiles) * kTileRows,
                 y0 = yr.begin + (t % y_tiles) * kTileRows;
    return compute_tile(evaluator, x0, std::min(xr.end, x0 + kTileRows), y0,
                        std::min(yr.end, y0 + kTileRows));
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
  uint64_t compute_tile(BoardEvaluator& evaluator, size_t x0, size_t x1, size_t y0,
                        size_t y1) const {
    uint64_t boards = 0;
    for (size_t i = x0; i < x1; ++i) {
      for (size_t j = y0; j < y1; ++j) {
        if (self() && i > j) continue;  // both boards are in cell (j, i)
        evaluator.add(xs_, i, ys(), j);
        ++boards;
        if (self() && i == j) continue;
        evaluator.add(ys(), j, xs_, i);
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

// Tiles [t0, t1) of block (gx, gy) of a row pair, taken together; with far children, the values of
// its tiles' far children start at far[0], far[1], ... (one pointer per tile).
struct TileSpan {
  int gx, gy;
  size_t t0, t1;
  const uint8_t* const* far = nullptr;
};

// Computes spans of one row pair as a wavefront: a span starts when the spans of the blocks
// before it in x and in y are done, if they are among these (those that are not must be done
// already); at most one span per block. `done(boards)` is called after each span.
void run_wavefront(const RowPair& pair, const std::vector<TileSpan>& spans, const Layers& layers,
                   const std::function<void(uint64_t)>& done);

// Every block of a row pair, whole.
std::vector<TileSpan> all_blocks(const RowPair& pair);

// How a layer's work was divided: its boards, the largest indivisible piece (a tile of cells),
// and the critical path of the pieces' dependencies, all in boards. boards / critical_path bounds
// the speed-up of any number of threads.
struct LayerWork {
  uint64_t boards = 0;
  uint64_t largest_piece = 0;
  uint64_t critical_path = 0;
};
// Adds a row pair's largest tile and the critical path of its wavefront to work.
void add_pair_work(const RowPair& pair, LayerWork& work);

}  // namespace kalah
