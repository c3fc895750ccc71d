// layer_solver.cpp: computing one layer in parallel: row pairs, Φ order, batched child lookups.
#include "db/layer_solver.h"

#include <tbb/parallel_for.h>
#include <tbb/parallel_for_each.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>

#include "db/chunk_sort.h"
#include "db/row_moves.h"
#include "db/value_code.h"
#include "solver/value.h"

namespace kalah {
namespace {

constexpr int kBatch = 32;        // boards whose children are prefetched together
constexpr size_t kTileRows = 16;  // a tile: this many x rows by this many y rows

// Where a layer's children are read and its values written: raw layers, which of their boards
// are far (FarChildren: the layer is null or the boards are elsewhere), and the layer being
// computed.
struct Layers {
  std::vector<const uint8_t*> raw;
  std::vector<uint8_t> far;  // [t * (s + 1) + k]: boards of layer t with k seeds in the mover's row
  uint8_t* out;
  bool is_far(int t, int k) const { return far[t * raw.size() + k]; }
};

// A far child, as a chunk lists it: layer << 56 | rank.
inline uint64_t far_key(int layer, uint64_t rank) {
  return uint64_t(layer) << 56 | rank;
}
constexpr uint64_t kRankMask = (uint64_t{1} << 56) - 1;

// One side of the boards of a row pair: a row set and the rows its moves leave.
struct Rows {
  RowSet set;
  RowMoves moves;
  Rows(const Ranker& ranker, int k) : set(ranker, k), moves(ranker, set) {}
};

// Computes boards in batches: first every child of every board of the batch is located and its
// byte prefetched, then the values are read. Lookups into big layers miss the caches; this lets
// the misses of a whole batch overlap instead of paying them one after another.
//
// With far children (FarChildren) a tile is queued twice: first with `gather` set, which only
// lists the keys of its far children (far_key) and computes nothing, then with `far_values` set
// to their values, resolved in between, read in the same order.
class BatchSolver {
 public:
  BatchSolver(const Rules& rules, const Ranker& ranker, int s, const Layers& layers,
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
    if (terminal(k, ko)) {
      p.best = terminal_value(k, ko);
    } else {
      p.best = INT_MIN;
      const uint8_t* x = mover.set.row(i);
      for (int pit = 0; pit < m; ++pit)
        if (x[pit] > 0) add_child(p, mover, i, opponent, j, pit);
    }
    if (!gather_ && ++count_ == kBatch) flush();
  }

  // Computes every queued board.
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
  const Layers& layers_;
  uint8_t* const out_;
  std::vector<uint64_t>* const gather_;
  const uint8_t* far_values_;
  Pending pending_[kBatch];
  Pending scratch_;  // the board being gathered
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
  uint64_t queue_tile(BatchSolver& solver, int gx, int gy, size_t t) const {
    const Range xr = range(xs_.set, gx), yr = range(ys().set, gy);
    const size_t y_tiles = (yr.end - yr.begin + kTileRows - 1) / kTileRows;
    const size_t x0 = xr.begin + (t / y_tiles) * kTileRows,
                 y0 = yr.begin + (t % y_tiles) * kTileRows;
    return compute_tile(solver, x0, std::min(xr.end, x0 + kTileRows), y0,
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

// Tiles [t0, t1) of block (gx, gy) of a row pair; with far children, the values of its tiles'
// far children start at far[0], far[1], ... (one pointer per tile).
struct Piece {
  int gx, gy;
  size_t t0, t1;
  const uint8_t* const* far = nullptr;
};

// Computes pieces of one row pair as a wavefront: a piece starts when the pieces of the blocks
// before it in x and in y are done, if they are among these (those that are not must be done
// already); at most one piece per block. `done(boards)` is called after each piece.
void run_pieces(const RowPair& pair, const std::vector<Piece>& pieces, const Layers& layers,
                const std::function<void(uint64_t)>& done) {
  const int nx = pair.x_groups(), ny = pair.y_groups();
  std::vector<size_t> index(static_cast<size_t>(nx) * ny, SIZE_MAX);  // [gx * ny + gy]
  for (size_t i = 0; i < pieces.size(); ++i) index[pieces[i].gx * ny + pieces[i].gy] = i;
  auto find = [&](int gx, int gy) -> const size_t* {
    if (gx < 0 || gy < 0 || gx >= nx || gy >= ny) return nullptr;
    const size_t* i = &index[gx * ny + gy];
    return *i == SIZE_MAX ? nullptr : i;
  };
  std::vector<std::atomic<int>> waiting(pieces.size());
  std::vector<size_t> ready;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const Piece& p = pieces[i];
    waiting[i] = (find(p.gx - 1, p.gy) != nullptr) + (find(p.gx, p.gy - 1) != nullptr);
    if (waiting[i] == 0) ready.push_back(i);
  }
  tbb::parallel_for_each(ready.begin(), ready.end(), [&](size_t i, tbb::feeder<size_t>& feeder) {
    const Piece& p = pieces[i];
    std::atomic<uint64_t> boards{0};
    tbb::parallel_for(p.t0, p.t1, [&](size_t t) {
      BatchSolver solver(pair.rules(), pair.ranker(), pair.seeds(), layers, nullptr,
                         p.far ? p.far[t - p.t0] : nullptr);
      boards += pair.queue_tile(solver, p.gx, p.gy, t);
      solver.flush();
    });
    done(boards);
    for (const size_t* next : {find(p.gx + 1, p.gy), find(p.gx, p.gy + 1)})
      if (next && --waiting[*next] == 0) feeder.add(*next);
  });
}

// Every block of a row pair, whole.
std::vector<Piece> all_blocks(const RowPair& pair) {
  std::vector<Piece> pieces;
  for (int gx = 0; gx < pair.x_groups(); ++gx)
    for (int gy = 0; gy < pair.y_groups(); ++gy)
      pieces.push_back({gx, gy, 0, pair.tile_count(gx, gy)});
  return pieces;
}

// With far children: the row pairs one after another, each one's blocks in order of gx then gy
// (a block comes after those it depends on), cut into chunks of tiles. A chunk lists the far
// children of its tiles (in parallel), has them resolved (FarChildren), and then computes its
// pieces, which read the values in the order they were listed.
class ChunkedLayer {
 public:
  ChunkedLayer(const Layers& layers, FarChildren& far, int pits,
               const std::function<void(uint64_t)>& done)
      : layers_(layers),
        far_(far),
        pits_(pits),
        done_(done),
        parts_(8 * static_cast<size_t>(tbb::this_task_arena::max_concurrency())) {}

  // Adds the blocks of a row pair, computing chunks as they fill (chunks do not span pairs).
  void add(std::unique_ptr<RowPair> owned) {
    run();
    pair_ = std::move(owned);
    // Pairs differ in how many of their children are far (k = 0: none in lean mode): each
    // learns its own, from a first chunk sized for the most.
    seen_ = 0;
    for (int gx = 0; gx < pair_->x_groups(); ++gx)  // a block after those it depends on
      for (int gy = 0; gy < pair_->y_groups(); ++gy) add_block(gx, gy);
  }
  void finish() {
    run();
    far_.finish();
  }

 private:
  // Adds the tiles of block (gx, gy) of the pair, computing chunks as they fill.
  void add_block(int gx, int gy) {
    const size_t tiles = pair_->tile_count(gx, gy);
    const uint64_t per_tile = std::max<uint64_t>(pair_->largest_tile(gx, gy), 1);
    for (size_t t = 0; t < tiles;) {
      const uint64_t room = limit() > boards_ ? (limit() - boards_) / per_tile : 0;
      const size_t take = std::clamp<uint64_t>(room, 1, tiles - t);
      pieces_.push_back({gx, gy, t, t + take});
      boards_ += take * per_tile;
      t += take;
      if (boards_ >= limit() || t < tiles) run();  // one piece per block in a chunk
    }
  }

  // Far children a board is expected to have at most: m before the pair's first chunk, then
  // 1.25 times the most a chunk of the pair has had.
  double per_board() const {
    return seen_ > 0 ? std::clamp(seen_ * 1.25, 0.25, 1.0 * pits_) : pits_;
  }

  // Boards per chunk: its lists take 17 bytes a child (key, value, and the resolver's sorting),
  // and the chunk's children are numbered in 32 bits.
  uint64_t limit() const {
    const uint64_t boards = far_.chunk_bytes() / static_cast<uint64_t>(17 * per_board());
    return std::clamp<uint64_t>(boards, 2 * kTileRows * kTileRows, UINT32_MAX / pits_);
  }

  void run() {
    if (pieces_.empty()) return;
    std::vector<std::pair<size_t, size_t>> tiles;  // (piece, tile)
    for (size_t i = 0; i < pieces_.size(); ++i)
      for (size_t t = pieces_[i].t0; t < pieces_[i].t1; ++t) tiles.emplace_back(i, t);
    // List the children, in parallel parts of the tiles. Each tile's keys are copied into one
    // buffer sized for the chunk, or, past its end (a chunk with more children than expected),
    // into a vector of their own.
    const size_t parts = std::min(parts_, tiles.size());
    auto part = [&](size_t q) { return q * tiles.size() / parts; };
    const size_t capacity = static_cast<size_t>(limit() * per_board());
    uint64_t* buffer = keys_.get(capacity);
    std::atomic<size_t> used{0};
    std::vector<std::span<const uint64_t>> keys(tiles.size());
    std::vector<std::vector<uint64_t>> overflow(tiles.size());
    std::atomic<uint64_t> boards{0};
    tbb::parallel_for(
        size_t{0}, parts, size_t{1},
        [&](size_t q) {
          std::vector<uint64_t> tile;
          for (size_t i = part(q); i < part(q + 1); ++i) {
            const Piece& p = pieces_[tiles[i].first];
            tile.clear();
            BatchSolver gather(pair_->rules(), pair_->ranker(), pair_->seeds(), layers_, &tile);
            boards += pair_->queue_tile(gather, p.gx, p.gy, tiles[i].second);
            const size_t at = used.fetch_add(tile.size());
            if (at + tile.size() <= capacity) {
              std::copy(tile.begin(), tile.end(), buffer + at);
              keys[i] = {buffer + at, tile.size()};
            } else {
              overflow[i] = tile;
              keys[i] = overflow[i];
            }
          }
        },
        tbb::simple_partitioner());
    uint64_t children = 0;
    std::vector<const uint8_t*> tile_values(tiles.size());
    uint8_t* values = values_.get(used);
    for (size_t i = 0; i < tiles.size(); children += keys[i++].size())
      tile_values[i] = values + children;
    far_.resolve(keys, values);
    overflow = {};
    if (boards > 0) seen_ = std::max(seen_, double(children) / boards);  // sizes the next chunks
    for (size_t i = 0, first = 0; i < pieces_.size(); first += pieces_[i].t1 - pieces_[i].t0, ++i)
      pieces_[i].far = &tile_values[first];
    run_pieces(*pair_, pieces_, layers_, done_);
    pieces_.clear();
    boards_ = 0;
  }

  const Layers& layers_;
  FarChildren& far_;
  double seen_ = 0;  // the most far children a board had in a chunk of this row pair
  const int pits_;
  const std::function<void(uint64_t)>& done_;
  const size_t parts_;             // of a chunk's tiles, listed in parallel
  Scratch<uint64_t> keys_;         // the chunk's children's keys, tile by tile
  Scratch<uint8_t> values_;        // the chunk's children's values, tile by tile
  std::unique_ptr<RowPair> pair_;  // the one being added
  std::vector<Piece> pieces_;      // of the chunk being formed
  uint64_t boards_ = 0;            // its boards, at most
};

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

// The largest piece of a row pair and the critical path of its wavefront, into work.
void account(const RowPair& pair, LayerWork& work) {
  for (int gx = 0; gx < pair.x_groups(); ++gx)
    for (int gy = 0; gy < pair.y_groups(); ++gy)
      work.largest_piece = std::max(work.largest_piece, pair.largest_tile(gx, gy));
  work.critical_path = std::max(work.critical_path, critical_path(pair));
}

}  // namespace

struct ColdLayers::Buffers {
  struct Lookup {
    uint32_t index;   // of the child in the chunk
    uint32_t offset;  // of its value in its block
  };
  Scratch<uint32_t> counts;
  Scratch<Lookup> order;  // the chunk's children, bucketed by block
};

ColdLayers::ColdLayers(const std::vector<std::unique_ptr<LayerFile>>& files, uint64_t chunk_bytes)
    : files_(files),
      chunk_bytes_(chunk_bytes),
      first_block_(files.size() + 1, 0),
      buffers_(std::make_unique<Buffers>()) {
  for (size_t t = 0; t < files.size(); ++t)
    first_block_[t + 1] = first_block_[t] + files[t]->header().blocks;
}

ColdLayers::~ColdLayers() = default;

void ColdLayers::resolve(const std::vector<std::span<const uint64_t>>& keys, uint8_t* values) {
  // The file block (numbered across the files) that holds a child, and its offset there.
  auto block_of = [&](uint64_t key) {
    const size_t t = (key >> 56) - 1;
    return first_block_[t] + (key & kRankMask) / files_[t]->header().boards_per_block;
  };
  const size_t blocks = first_block_.back();
  Buffers::Lookup* order = buffers_->order.get(std::accumulate(
      keys.begin(), keys.end(), size_t{0}, [](size_t n, const auto& k) { return n + k.size(); }));
  const std::vector<uint64_t> start = sort_children(
      keys, blocks, block_of,
      [&](uint64_t slot, uint32_t index, uint64_t key) {
        const uint32_t per_block = files_[(key >> 56) - 1]->header().boards_per_block;
        order[slot] = {index, static_cast<uint32_t>((key & kRankMask) % per_block)};
      },
      buffers_->counts);
  // Decode each block touched once and fill in its children's values.
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, blocks), [&](const auto& range) {
    std::unique_ptr<uint8_t[]> data;
    for (uint64_t b = range.begin(); b != range.end(); ++b) {
      if (start[b] == start[b + 1]) continue;
      const size_t t =
          std::upper_bound(first_block_.begin(), first_block_.end(), b) - first_block_.begin() - 1;
      const LayerFile& file = *files_[t];
      if (!data) data = std::make_unique_for_overwrite<uint8_t[]>(file.header().boards_per_block);
      file.read_block(b - first_block_[t], data.get());
      for (uint64_t i = start[b]; i < start[b + 1]; ++i)
        values[order[i].index] = data[order[i].offset];
    }
  });
}

std::vector<RankRange> pair_ranges(const Ranker& ranker, int s, int k) {
  const uint64_t boards = ranker.row_count(k) * ranker.row_count(s - k);
  std::vector<RankRange> ranges;
  for (const int mover : {k, s - k}) {
    const uint64_t begin = ranker.rank_of_rows(s, mover, 0, 0);
    ranges.push_back({begin, begin + boards});
    if (2 * k == s) break;
  }
  return ranges;
}

LayerWork compute_layer(const Rules& rules, const Ranker& ranker, int s,
                        const std::vector<const uint8_t*>& lower, FarChildren* far, uint8_t* out,
                        const std::function<void(uint64_t)>& progress) {
  // The row pairs this process computes, and their boards.
  std::vector<int> ks;
  uint64_t size = 0;
  for (int k = 0; 2 * k <= s; ++k) {
    if (far && !far->computes(k)) continue;
    ks.push_back(k);
    for (const RankRange& r : pair_ranges(ranker, s, k)) {
      size += r.end - r.begin;
      // In parallel: the first touch of fresh memory (the kernel zeroing its pages) is slow on a
      // VM, and done by one thread it held the other idle.
      tbb::parallel_for(tbb::blocked_range<uint64_t>(r.begin, r.end, uint64_t{1} << 24),
                        [&](const tbb::blocked_range<uint64_t>& b) {
                          std::memset(out + b.begin(), kUnknownValue, b.size());
                        });
    }
  }
  Layers layers{lower, {}, out};
  layers.raw.resize(s + 1);
  layers.raw[s] = out;
  layers.far.assign((s + 1) * (s + 1), 0);
  for (int t = 1; t < s; ++t) {
    for (int k = 0; k <= t; ++k)
      layers.far[t * (s + 1) + k] = !layers.raw[t] || (far && far->elsewhere(t, k));
    if (!layers.raw[t] && !far) throw std::logic_error("builder has no source for a lower layer");
    if (ranker.layer_size(t) > kRankMask)
      throw std::overflow_error("far children need layers of fewer than 2^56 boards");
  }
  std::atomic<uint64_t> done{0};
  const std::function<void(uint64_t)> finished = [&](uint64_t boards) {
    const uint64_t total = done.fetch_add(boards) + boards;
    if (progress) progress(total);
  };
  LayerWork work;
  work.boards = size;
  if (std::find(layers.far.begin(), layers.far.end(), 1) != layers.far.end()) {
    ChunkedLayer chunked(layers, *far, rules.pits, finished);
    for (const int k : ks) {
      auto pair = std::make_unique<RowPair>(rules, ranker, s, k);
      account(*pair, work);
      chunked.add(std::move(pair));
    }
    chunked.finish();
  } else {
    // Row pairs (k, s-k) are independent: largest first, so the threads finish together.
    std::sort(ks.begin(), ks.end(), [&](int a, int b) {
      return ranker.row_count(a) * ranker.row_count(s - a) >
             ranker.row_count(b) * ranker.row_count(s - b);
    });
    std::mutex mutex;
    tbb::parallel_for(
        size_t{0}, ks.size(), size_t{1},
        [&](size_t i) {
          const RowPair pair(rules, ranker, s, ks[i]);
          run_pieces(pair, all_blocks(pair), layers, finished);
          std::lock_guard lock(mutex);
          account(pair, work);
        },
        tbb::simple_partitioner());
    if (far) far->finish();
  }
  bool complete = done == size;
  for (const int k : ks)
    for (const RankRange& r : pair_ranges(ranker, s, k))
      complete = complete && !std::memchr(out + r.begin, kUnknownValue, r.end - r.begin);
  if (!complete) throw std::logic_error("builder left a board uncomputed");
  return work;
}

}  // namespace kalah
