// value_models.cpp: how many bits a board of a built database three models of its values need
// (docs/experiments.md "Value models"; issue 50).
//
// usage: kalah-value-models DIR M CAPTURE FIRST LAST
//
// For each layer FIRST..LAST of DIR (any format), per block of 65,536 boards (as a layer file
// codes them, one table a block), the empirical conditional entropy of the value given:
//   order 0    nothing;
//   previous   the previous board's value in rank order (what format 2 codes, db/value_blocks.h);
//   features   the previous value and the board's extra turns and captures;
//   children   the residual V - L, where L is the best of the moves that leave the layer (their
//              children's values read from the lower layers), with the previous residual: a
//              probe would need those children's values, and theirs, down to layer 1.
// Also the share of boards whose best move leaves the layer, and format 2's actual bits; then the
// previous-value entropy with don't-care stores (below, in run), and the share of boards the
// one-level variant stores below their value.
#include <cstdio>
#include <string>
#include <vector>

#include "db/file_names.h"
#include "db/layer_file.h"
#include "db/rank.h"
#include "db/value_blocks.h"
#include "db/value_code.h"
#include "game/rules.h"
#include "tools/bench/entropy.h"

namespace kalah {
namespace {

// What a board's moves say: extra turns, a capture, whether one stays in the layer, the best of
// those that leave it (INT32_MIN if none) and whether all those are stored exactly (`inexact`:
// the lower layers' boards the one-level don't-care store keeps below their value).
struct Moves {
  int extra = 0, capture = 0, best_leaving = INT32_MIN;
  bool stays = false, leaving_exact = true;
};
Moves moves(const Rules& rules, const Ranker& ranker,
            const std::vector<std::vector<uint8_t>>& layer,
            const std::vector<std::vector<bool>>& inexact, const Board& b, int s) {
  const int m = rules.pits, k = mover_seeds(b, m);
  Moves f;
  if (is_terminal(rules, k, s - k)) return f;
  for (int pit = 0; pit < m; ++pit) {
    if (!b.pits[pit]) continue;
    const MoveResult move = play(rules, b, pit);
    f.extra += move.extra_turn;
    f.capture |= move.capture;
    const int t = mover_seeds(move.board, m) + opponent_seeds(move.board, m);
    if (t == s) {
      f.stays = true;
      continue;
    }
    const uint64_t at = t == 0 ? 0 : ranker.rank(move.board);
    const int child = t == 0 ? 0 : decode_value(rules, t, layer[t][at]);
    if (t > 0 && inexact[t][at]) f.leaving_exact = false;
    f.best_leaving = std::max(f.best_leaving, move.gain + (move.extra_turn ? child : -child));
  }
  return f;
}

int run(const std::string& dir, const Rules& rules, int first, int last) {
  const Ranker ranker(rules.pits, last);
  std::vector<std::vector<uint8_t>> layer(last + 1);
  for (int s = 1; s <= last; ++s) {
    const LayerFile f(layer_path(dir, rules, s), rules, s);
    layer[s].resize(f.header().boards);
    f.read_all(layer[s].data());
  }
  std::printf(
      "layer  boards  order-0  previous  features  children  leaves-best  format-2  "
      "dont-care  one-level  one-level-share\n");
  // Don't-care stores (issue 59, point 5): a board one of whose moves leaving the layer is best
  // may store any value at or below its own (a probe takes the maximum of the stored value and the
  // best leaving move); each such board stores the previous board's stored value where it may.
  // "dont-care": every such board; "one-level": only where every leaving child is stored
  // exactly, so that a probe reads the board and its leaving children and no further.
  std::vector<std::vector<bool>> inexact(last + 1);  // one-level: stored below the value
  for (int s = 1; s <= last; ++s) {
    const bool shown = s >= first;
    inexact[s].assign(layer[s].size(), false);
    Entropy order0, previous, features, children, dont_care, one_level;
    uint64_t inexact_count = 0;
    int last_all = -1, last_one = -1;
    const uint64_t n = layer[s].size();
    const int symbols = encode_value(rules, s, s) + 1;
    uint64_t leaves_best = 0, coded = 0;
    int last_value = symbols, last_residual = 0;
    Board b = ranker.first(s);
    for (uint64_t r = 0; r < n; ++r, ranker.next(b)) {
      if (r % kBoardsPerBlock == 0 && r > 0 && shown) {
        for (Entropy* e : {&order0, &previous, &features, &children, &dont_care, &one_level})
          e->end_block();
        coded += value_blocks::encode(&layer[s][r - kBoardsPerBlock], kBoardsPerBlock, symbols, 0)
                     .size();
      }
      const int v = layer[s][r];
      const Moves f = moves(rules, ranker, layer, inexact, b, s);
      order0.add(0, v);
      previous.add(last_value, v);
      features.add(last_value * 64 + std::min(f.extra, 3) * 2 + f.capture, v);
      const int residual = f.best_leaving == INT32_MIN
                               ? 255
                               : std::min(decode_value(rules, s, v) - f.best_leaving, 254);
      leaves_best += residual == 0;
      children.add((f.stays ? 256 : 0) + last_residual, residual);
      const int all = residual == 0 && last_all >= 0 && last_all <= v ? last_all : v;
      const int one =
          residual == 0 && f.leaving_exact && last_one >= 0 && last_one <= v ? last_one : v;
      dont_care.add(last_all < 0 ? symbols : last_all, all);
      one_level.add(last_one < 0 ? symbols : last_one, one);
      if (one != v) inexact[s][r] = true, ++inexact_count;
      last_all = r % kBoardsPerBlock == kBoardsPerBlock - 1 ? -1 : all;
      last_one = r % kBoardsPerBlock == kBoardsPerBlock - 1 ? -1 : one;
      last_value = v;
      last_residual = residual;
    }
    if (!shown) continue;
    for (Entropy* e : {&order0, &previous, &features, &children, &dont_care, &one_level})
      e->end_block();
    const uint64_t tail = n - (n - 1) / kBoardsPerBlock * kBoardsPerBlock;
    coded += value_blocks::encode(&layer[s][n - tail], tail, symbols, 0).size();
    const double per = 1.0 / static_cast<double>(n);
    std::printf("%5d  %6.3g  %7.3f  %8.3f  %8.3f  %8.3f  %11.3f  %8.3f  %9.3f  %9.3f  %15.3f\n", s,
                double(n), order0.bits() * per, previous.bits() * per, features.bits() * per,
                children.bits() * per, leaves_best * per, coded * 8.0 * per, dont_care.bits() * per,
                one_level.bits() * per, inexact_count * per);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace
}  // namespace kalah

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: kalah-value-models DIR M standard|empty FIRST LAST\n");
    return 2;
  }
  kalah::Rules rules;
  rules.pits = std::atoi(argv[2]);
  rules.capture =
      std::string(argv[3]) == "empty" ? kalah::Capture::kEmpty : kalah::Capture::kStandard;
  return kalah::run(argv[1], rules, std::atoi(argv[4]), std::atoi(argv[5]));
}
