// verify.cpp: checksums, recomputation from children, and the solver cross-check.
#include "db/verify.h"

#include <tbb/parallel_for.h>

#include <atomic>
#include <climits>
#include <mutex>
#include <random>

#include "db/decoded_layer.h"
#include "game/notation.h"
#include "game/value.h"

namespace kalah {
namespace {

constexpr uint64_t kProblemsShown = 5;

// V of b recomputed from its children's stored values.
int from_children(const Database& db, const Board& b) {
  const Rules& r = db.rules();
  if (is_terminal(r, b)) return terminal_value(r, b);
  int best = INT_MIN;
  for (int pit = 0; pit < r.pits; ++pit) {
    if (b.pits[pit] == 0) continue;
    const MoveResult mr = play(r, b, pit);
    best = std::max(best, move_value(mr, *db.probe(mr.board)));
  }
  return best;
}

std::string board_problem(const std::string& file, const Board& b, int m, int stored,
                          const std::string& found) {
  return file + ": board " + format_relative(Position{b}, m) + " holds " + std::to_string(stored) +
         ", " + found;
}

// Way 2 on random boards of the layer, or on all of it.
void recompute(const Database& db, const std::string& file, int s, const VerifyOptions& o,
               LayerCheck& out) {
  const Ranker& ranker = db.ranker();
  const uint64_t size = ranker.layer_size(s);
  const bool every = o.full || size <= o.sample;
  std::atomic<uint64_t> wrong{0};
  std::mutex mutex;
  auto check = [&](uint64_t r) {
    const Board b = ranker.unrank(s, r);
    const int stored = decode_value(db.rules(), s, db.encoded(s, r));
    const int recomputed = from_children(db, b);
    if (stored == recomputed || wrong.fetch_add(1) >= kProblemsShown) return;
    std::lock_guard lock(mutex);
    out.problems.push_back(board_problem(file, b, db.rules().pits, stored,
                                         "its children give " + std::to_string(recomputed)));
  };
  if (every) {
    tbb::parallel_for(uint64_t{0}, size, [&](uint64_t r) { check(r); });
  } else {
    std::mt19937_64 rng(s);
    std::vector<uint64_t> ranks(o.sample);
    for (auto& r : ranks) r = std::uniform_int_distribution<uint64_t>(0, size - 1)(rng);
    tbb::parallel_for(size_t{0}, ranks.size(), [&](size_t i) { check(ranks[i]); });
  }
  out.recomputed = every ? size : o.sample;
  out.wrong += wrong;
}

// Way 3: a few random boards against the oracle.
void solve_samples(const Database& db, const std::string& file, int s, const VerifyOptions& o,
                   LayerCheck& out) {
  if (s > o.solver_max_seeds || !o.exact) return;
  const uint64_t size = db.ranker().layer_size(s);
  std::mt19937_64 rng(1000 + s);
  for (; out.solved < std::min(o.solver_sample, size); ++out.solved) {
    const uint64_t r = std::uniform_int_distribution<uint64_t>(0, size - 1)(rng);
    const Board b = db.ranker().unrank(s, r);
    const int stored = decode_value(db.rules(), s, db.encoded(s, r));
    const int exact = o.exact(b);
    if (stored == exact) continue;
    if (out.wrong++ < kProblemsShown)
      out.problems.push_back(board_problem(file, b, db.rules().pits, stored,
                                           "the solver finds " + std::to_string(exact)));
  }
}

}  // namespace

std::vector<std::string> check_files(const std::string& dir, const VariantFiles& v) {
  std::vector<std::string> failures;
  for (int s : v.layers) {
    try {
      const LayerFile file(layer_path(dir, v.rules, s), v.rules, s);
      file.check_body();
      // Decodes every block (checking its codes), comparing a decoded copy on the way.
      if (std::string copy = DecodedLayer::check(file, dir); !copy.empty())
        failures.push_back(copy);
    } catch (const FileError& e) {
      failures.push_back(e.what());
    }
  }
  return failures;
}

LayerCheck check_layer(const Database& db, const std::string& dir, int s,
                       const VerifyOptions& options) {
  LayerCheck out;
  out.seeds = s;
  const std::string file = layer_path(dir, db.rules(), s);
  recompute(db, file, s, options, out);
  solve_samples(db, file, s, options, out);
  return out;
}

}  // namespace kalah
