// dont_care.cpp: don't-care stores measured on sampled blocks of one layer, probing the database
// for each board's children (docs/experiments.md "Don't-care stores"; issue 59, point 5), where
// kalah-value-models, which holds every layer in memory, cannot go (34 seeds: 39 GB).
//
// usage: kalah-dont-care DIR M CAPTURE LAYER BLOCKS
//
// BLOCKS blocks of 65,536 boards spread evenly over layer LAYER of DIR (any format). Per block,
// the previous-value entropy (bits a board) of:
//   exact       the values as formats 2 and 3 code them;
//   dont-care   every board one of whose moves leaving the layer is best stores the previous
//               board's stored value where that is at or below its own (a probe takes the
//               maximum of the stored value and the best leaving move, so it must then search);
// and the share of boards whose best move leaves the layer. The one-level variant is not
// measured here: whether a child is stored below its value depends on its neighbours in its own
// layer, and theirs, so it needs every lower layer's marks (kalah-value-models).
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "db/database.h"
#include "db/layer_file.h"
#include "db/value_code.h"
#include "game/rules.h"
#include "tools/bench/entropy.h"

namespace kalah {
namespace {

// The best of the moves of b (s seeds on the pits) that leave its layer (INT_MIN: none).
int best_leaving(const Rules& rules, const Database& db, const Board& b, int s) {
  int best = INT_MIN;
  const int m = rules.pits, k = mover_seeds(b, m);
  if (is_terminal(rules, k, s - k)) return best;
  for (int pit = 0; pit < m; ++pit) {
    if (!b.pits[pit]) continue;
    const MoveResult move = play(rules, b, pit);
    const int t = mover_seeds(move.board, m) + opponent_seeds(move.board, m);
    if (t == s) continue;
    const int child = t == 0 ? 0 : db.value(move.board);
    best = std::max(best, move.gain + (move.extra_turn ? child : -child));
  }
  return best;
}

int run(const std::string& dir, const Rules& rules, int s, int blocks) {
  const Database db(dir, rules, Database::search_cache_bytes());
  const Ranker& ranker = db.ranker();
  const uint64_t n = ranker.layer_size(s), in_layer = (n + kBoardsPerBlock - 1) / kBoardsPerBlock;
  Entropy exact, dont_care;
  uint64_t boards = 0, leaves_best = 0;
  const int symbols = encode_value(rules, s, s) + 1;
  for (int i = 0; i < blocks; ++i) {
    const uint64_t first = i * in_layer / blocks * kBoardsPerBlock;
    const uint64_t last = std::min(n, first + kBoardsPerBlock);
    int previous = symbols, last_all = symbols;
    Board b = ranker.unrank(s, first);
    for (uint64_t r = first; r < last; ++r, ranker.next(b)) {
      const int code = db.encoded(s, r), v = decode_value(rules, s, code);
      const bool may = best_leaving(rules, db, b, s) == v;
      const int all = may && last_all <= code ? last_all : code;
      exact.add(previous, code);
      dont_care.add(last_all, all);
      leaves_best += may;
      previous = code, last_all = all;
    }
    boards += last - first;
    for (Entropy* e : {&exact, &dont_care}) e->end_block();
  }
  const double per = 1.0 / static_cast<double>(boards);
  std::printf("layer  boards  exact  dont-care  leaves-best\n");
  std::printf("%5d  %6.3g  %5.3f  %9.3f  %11.3f\n", s, double(boards), exact.bits() * per,
              dont_care.bits() * per, leaves_best * per);
  return 0;
}

}  // namespace
}  // namespace kalah

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: kalah-dont-care DIR M standard|empty LAYER BLOCKS\n");
    return 2;
  }
  kalah::Rules rules;
  rules.pits = std::atoi(argv[2]);
  rules.capture =
      std::string(argv[3]) == "empty" ? kalah::Capture::kEmpty : kalah::Capture::kStandard;
  try {
    return kalah::run(argv[1], rules, std::atoi(argv[4]), std::atoi(argv[5]));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kalah-dont-care: %s\n", e.what());
    return 1;
  }
}
