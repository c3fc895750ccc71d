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
//   one-level   only those whose leaving children are all stored exactly. Here a child counts as
//               exact only if no move of its own leaving its layer is best (its children probed
//               too), whatever its neighbours: fewer boards qualify than in kalah-value-models'
//               one-level, which knows which children really were stored below their value, so
//               this figure is at or above that one (compare both at 22 seeds).
// Also the share of boards whose best move leaves the layer and of those one level stores below
// their value.
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

struct Leaving {
  int best = INT_MIN;  // the best of the moves that leave the layer (INT_MIN: none)
  bool all_exact = true;
};

// The moves of b (s seeds on the pits) that leave its layer; with `children`, whether each child
// they reach may be stored below its value (a move of its own leaving its layer is best).
Leaving leaving(const Rules& rules, const Database& db, const Board& b, int s, bool children) {
  Leaving out;
  const int m = rules.pits, k = mover_seeds(b, m);
  if (is_terminal(rules, k, s - k)) return out;
  for (int pit = 0; pit < m; ++pit) {
    if (!b.pits[pit]) continue;
    const MoveResult move = play(rules, b, pit);
    const int t = mover_seeds(move.board, m) + opponent_seeds(move.board, m);
    if (t == s) continue;
    const int child = t == 0 ? 0 : db.value(move.board);
    out.best = std::max(out.best, move.gain + (move.extra_turn ? child : -child));
    if (children && t > 0 && leaving(rules, db, move.board, t, false).best == child)
      out.all_exact = false;
  }
  return out;
}

int run(const std::string& dir, const Rules& rules, int s, int blocks) {
  const Database db(dir, rules, Database::search_cache_bytes());
  const Ranker& ranker = db.ranker();
  const uint64_t n = ranker.layer_size(s), in_layer = (n + kBoardsPerBlock - 1) / kBoardsPerBlock;
  Entropy exact, dont_care, one_level;
  uint64_t boards = 0, leaves_best = 0, below = 0;
  const int symbols = encode_value(rules, s, s) + 1;
  for (int i = 0; i < blocks; ++i) {
    const uint64_t first = i * in_layer / blocks * kBoardsPerBlock;
    const uint64_t last = std::min(n, first + kBoardsPerBlock);
    int previous = symbols, last_all = symbols, last_one = symbols;
    Board b = ranker.unrank(s, first);
    for (uint64_t r = first; r < last; ++r, ranker.next(b)) {
      const int code = db.encoded(s, r), v = decode_value(rules, s, code);
      const Leaving l = leaving(rules, db, b, s, true);
      const bool may = l.best == v;
      const int all = may && last_all <= code ? last_all : code;
      const int one = may && l.all_exact && last_one <= code ? last_one : code;
      exact.add(previous, code);
      dont_care.add(last_all, all);
      one_level.add(last_one, one);
      leaves_best += may;
      below += one != code;
      previous = code, last_all = all, last_one = one;
    }
    boards += last - first;
    for (Entropy* e : {&exact, &dont_care, &one_level}) e->end_block();
  }
  const double per = 1.0 / static_cast<double>(boards);
  std::printf("layer  boards  exact  dont-care  one-level  leaves-best  one-level-below\n");
  std::printf("%5d  %6.3g  %5.3f  %9.3f  %9.3f  %11.3f  %15.3f\n", s, double(boards),
              exact.bits() * per, dont_care.bits() * per, one_level.bits() * per, leaves_best * per,
              below * per);
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
