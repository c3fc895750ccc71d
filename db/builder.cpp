// builder.cpp: computing layers in parallel, and the resumable build of a database directory.
#include "db/builder.h"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstring>
#include <filesystem>

#include "db/layer_file.h"

namespace kalah {
namespace {

constexpr uint8_t kUnknown = 0xFF;
constexpr uint64_t kTileRows =
    64;  // opponent rows per tile: one cache line of writes per mover row

class LayerSolver {
 public:
  LayerSolver(const Rules& rules, const Ranker& ranker, int s,
              const std::vector<const uint8_t*>& lower, uint8_t* out)
      : rules_(rules), ranker_(ranker), s_(s), lower_(lower), out_(out) {}

  // Computes, stores and returns the encoded value of board b: rank r in layer s, opponent row
  // rank `opponent_rank` (known to the caller; children that keep that row reuse it).
  uint8_t solve(const Board& b, uint64_t r, uint64_t opponent_rank) const {
    int best = INT_MIN;
    if (is_terminal(rules_, b)) {
      best = terminal_value(rules_, b);
    } else {
      const int m = rules_.pits;
      for (int pit = 0; pit < m; ++pit) {
        const int n = b.pits[pit];
        if (n == 0) continue;
        const MoveResult mr = play(rules_, b, pit);
        // A sowing that stops at or before the store and captures nothing leaves the opponent's
        // row as it was.
        const bool opponent_row_kept = n <= m - pit && !mr.capture;
        best = std::max(best, move_value(mr, child_value(mr, opponent_row_kept, opponent_rank)));
      }
    }
    const uint8_t e = encode_value(rules_, s_, best);
    std::atomic_ref<uint8_t>(out_[r]).store(e, std::memory_order_relaxed);
    return e;
  }

  uint8_t known(uint64_t r) const {
    return std::atomic_ref<uint8_t>(out_[r]).load(std::memory_order_relaxed);
  }

 private:
  int child_value(const MoveResult& mr, bool opponent_row_kept, uint64_t opponent_rank) const {
    const Board& c = mr.board;
    if (is_terminal(rules_, c)) return terminal_value(rules_, c);
    const int m = rules_.pits;
    const int cs = s_ - mr.gain;
    // The kept row is the child's opponent row after an extra turn, its mover row otherwise.
    const uint64_t mover_rank =
        opponent_row_kept && !mr.extra_turn ? opponent_rank : ranker_.row_rank(&c.pits[0]);
    const uint64_t other_rank =
        opponent_row_kept && mr.extra_turn ? opponent_rank : ranker_.row_rank(&c.pits[m]);
    const uint64_t cr = ranker_.rank_of_rows(cs, mover_seeds(c, m), mover_rank, other_rank);
    if (cs < s_) return decode_value(rules_, cs, lower_[cs][cr]);
    uint8_t e = known(cr);
    if (e == kUnknown) e = solve(c, cr, other_rank);  // same layer: Φ grows, so this ends
    return decode_value(rules_, s_, e);
  }

  const Rules& rules_;
  const Ranker& ranker_;
  const int s_;
  const std::vector<const uint8_t*>& lower_;
  uint8_t* const out_;
};

}  // namespace

void compute_layer(const Rules& rules, const Ranker& ranker, int s,
                   const std::vector<const uint8_t*>& lower, uint8_t* out,
                   const std::function<void(uint64_t)>& progress) {
  const int m = rules.pits;
  std::memset(out, kUnknown, ranker.layer_size(s));
  struct Tile {
    int k;  // seeds in the mover row
    uint64_t first_o, rows;
  };
  std::vector<Tile> tiles;
  for (int k = 0; k <= s; ++k) {
    const uint64_t count_o = ranker.row_count(s - k);
    for (uint64_t o = 0; o < count_o; o += kTileRows)
      tiles.push_back({k, o, std::min(kTileRows, count_o - o)});
  }
  const LayerSolver solver(rules, ranker, s, lower, out);
  std::atomic<uint64_t> done{0};
  tbb::parallel_for(size_t{0}, tiles.size(), [&](size_t t) {
    const Tile& tile = tiles[t];
    const uint64_t count_a = ranker.row_count(tile.k), count_o = ranker.row_count(s - tile.k);
    uint8_t opp[kTileRows][kMaxPits];
    ranker.row_unrank(s - tile.k, tile.first_o, opp[0]);
    for (uint64_t j = 1; j < tile.rows; ++j) {
      std::memcpy(opp[j], opp[j - 1], m);
      ranker.next_row(opp[j]);
    }
    Board b;
    ranker.first_row(tile.k, &b.pits[0]);
    uint64_t r = ranker.sublayer_offset(s, tile.k) + tile.first_o;
    for (uint64_t a = 0; a < count_a; ++a, r += count_o) {
      for (uint64_t j = 0; j < tile.rows; ++j) {
        if (solver.known(r + j) != kUnknown) continue;
        std::memcpy(&b.pits[m], opp[j], m);
        solver.solve(b, r + j, tile.first_o + j);
      }
      ranker.next_row(&b.pits[0]);
    }
    const uint64_t total = done.fetch_add(count_a * tile.rows) + count_a * tile.rows;
    if (progress) progress(total);
  });
}

uint64_t build_memory_estimate(const Ranker& ranker, int s) {
  uint64_t bytes = 0;
  for (int t = 0; t <= s; ++t) bytes += ranker.layer_size(t);
  return bytes + ranker.layer_size(s) / 4 + (uint64_t{64} << 20);
}

void build_database(const BuildOptions& o, BuildObserver& observer) {
  validate(o.rules);
  if (o.max_seeds < 1 || o.max_seeds > max_layer(o.rules))
    throw std::invalid_argument("--max-seeds must be 1.." + std::to_string(max_layer(o.rules)) +
                                " for these rules, got " + std::to_string(o.max_seeds));
  const Ranker ranker(o.rules.pits, o.max_seeds);
  const uint64_t limit =
      o.memory_limit ? o.memory_limit
                     : static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  const uint64_t peak = build_memory_estimate(ranker, o.max_seeds);
  if (peak > limit) {
    int fits = 0;
    while (fits < o.max_seeds && build_memory_estimate(ranker, fits + 1) <= limit) ++fits;
    throw MemoryLimitError("building up to " + std::to_string(o.max_seeds) + " seeds needs " +
                           std::to_string(peak >> 20) + " MiB, the memory limit is " +
                           std::to_string(limit >> 20) + " MiB (up to " + std::to_string(fits) +
                           " seeds would fit)");
  }
  std::filesystem::create_directories(o.dir);
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              o.threads > 0 ? o.threads : tbb::this_task_arena::max_concurrency());

  // Which layers are already on disk and valid; those below the top layer to build are loaded.
  std::vector<bool> valid(o.max_seeds + 1, false);
  int top_to_build = 0;
  for (int s = 1; s <= o.max_seeds; ++s) {
    const std::string path = o.dir + "/" + layer_file_name(o.rules, s);
    std::filesystem::remove(path + ".tmp");  // left by an interrupted build
    if (std::filesystem::exists(path)) {
      try {
        LayerFile(path, o.rules, s).check_body();
        valid[s] = true;
      } catch (const DatabaseError& e) {
        observer.note(std::string(e.what()) + "; rebuilding it");
      }
    }
    if (!valid[s]) top_to_build = s;
  }

  std::vector<BigArray> layers(o.max_seeds + 1);
  std::vector<const uint8_t*> lower(o.max_seeds + 1, nullptr);
  for (int s = 1; s <= o.max_seeds; ++s) {
    LayerEvent ev;
    ev.seeds = s;
    ev.boards = ranker.layer_size(s);
    ev.memory = build_memory_estimate(ranker, s);
    ev.reused = valid[s];
    observer.layer_started(ev);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string path = o.dir + "/" + layer_file_name(o.rules, s);
    const bool needed_later = s < top_to_build;
    if (valid[s] && needed_later) {
      layers[s] = BigArray(ev.boards);
      LayerFile(path, o.rules, s).read_all(layers[s].data());
    } else if (!valid[s]) {
      layers[s] = BigArray(ev.boards);
      compute_layer(o.rules, ranker, s, lower, layers[s].data(),
                    [&](uint64_t done) { observer.layer_progress(s, done, ev.boards); });
      ev.compute_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      write_layer_file(o.dir, o.rules, s, layers[s].data(), ev.boards);
    }
    lower[s] = layers[s].data();
    ev.file_bytes = std::filesystem::file_size(path);
    ev.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    observer.layer_finished(ev);
    if (!needed_later) {  // nothing above needs it in memory any more
      layers[s] = BigArray();
      lower[s] = nullptr;
    }
  }
}

}  // namespace kalah
