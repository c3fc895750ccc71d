// row_moves.h: the rows a move leaves behind, looked up instead of sown (docs/design.md §5).
//
// The builder computes every board (x, y) of a row pair from rows x and y of two fixed sets. A
// move that does not lap the board changes each row in one of a few ways: the mover's row loses
// the sown pit and gains a seed in the pits after it (up to the store), the opponent's row gains
// a seed in its first pits (a sowing past the store) or loses one pit (a capture). So the rank of
// every row a move can leave is tabulated once per row and pit, and a board's children cost a
// few lookups instead of a sowing and two rankings each.
#pragma once

#include <cstdint>
#include <vector>

#include "db/rank.h"
#include "game/rules.h"

namespace kalah {

// The rows of m pits holding k seeds, in processing order: by Φ descending, ties by rank.
// Same-layer moves raise a row's Φ, so every row a move leads to comes earlier; group_end[g]
// closes the g-th run of rows of equal Φ.
struct RowSet {
  int k = 0;
  int m = 0;
  std::vector<uint8_t> pits;  // m per row
  std::vector<uint64_t> ranks;
  std::vector<size_t> group_end;

  RowSet(const Ranker& ranker, int k);
  size_t size() const { return ranks.size(); }
  const uint8_t* row(size_t i) const { return &pits[i * m]; }
};

// For row i of a set and pit p (entries [i * m + p]); an entry is meaningful only where its move
// exists (e.g. `sown` needs a non-empty pit).
struct RowMoves {
  // The mover's row after sowing pit p, seeds past the last pit left out.
  std::vector<uint64_t> sown;
  // The same when the last seed lands in an empty pit of the row and is captured.
  std::vector<uint64_t> sown_captured;
  // The row with pit p emptied (the opponent's row after a capture there).
  std::vector<uint64_t> emptied;
  // The row with a seed more in each of pits 0..p (a sowing past the store feeding p+1 pits).
  std::vector<uint64_t> fed;

  RowMoves(const Ranker& ranker, const RowSet& set);
};

// One side of the boards of a row pair: a row set and the rows its moves leave.
struct Rows {
  RowSet set;
  RowMoves moves;
  Rows(const Ranker& ranker, int k) : set(ranker, k), moves(ranker, set) {}
};

// A board's child as the builder sees it: `gain` seeds to the mover, then the board of s - gain
// seeds whose mover row holds `seeds` seeds and has rank `mover`, its opponent's row `opponent`.
struct RowChild {
  int gain;
  bool extra_turn;
  int seeds;
  uint64_t mover, opponent;
};

// The child of sowing `pit` (non-empty) of row i of `mover` against row j of `opponent`: the rows
// it leaves come from the tables, except for sowings that come back to the mover's row
// (n > 2m - pit), which are played. Inline: the builder calls it for every move of every board.
inline RowChild row_child(const Rules& rules, const Ranker& ranker, const Rows& mover, size_t i,
                          const Rows& opponent, size_t j, int pit) {
  const int m = rules.pits, k = mover.set.k, ko = opponent.set.k;
  const uint8_t* x = mover.set.row(i);
  const int n = x[pit];
  const size_t at = i * m + pit;
  const uint64_t own = opponent.set.ranks[j];
  if (n < m - pit) {  // the last seed stays in the mover's row
    const int last = pit + n;
    const int opposite = m - 1 - last;
    const int captured = opponent.set.row(j)[opposite];
    if (x[last] == 0 && (captured > 0 || rules.capture == Capture::kEmpty))
      return {1 + captured, false, ko - captured, opponent.moves.emptied[j * m + opposite],
              mover.moves.sown_captured[at]};
    return {0, false, ko, own, mover.moves.sown[at]};
  }
  const int kept = k - n + (m - 1 - pit);  // seeds left in the mover's row
  if (n == m - pit) return {1, true, kept, mover.moves.sown[at], own};
  if (n <= 2 * m - pit)  // past the store into the opponent's first n - (m - pit) pits
    return {1, false, ko + n - (m - pit), opponent.moves.fed[j * m + n - (m - pit) - 1],
            mover.moves.sown[at]};
  const Board b = board_of_rows(pack_row(x, m), pack_row(opponent.set.row(j), m), m);
  const MoveResult mr = play(rules, b, pit);
  const Board& c = mr.board;
  return {mr.gain, mr.extra_turn, mover_seeds(c, m), ranker.row_rank(&c.pits[0]),
          ranker.row_rank(&c.pits[m])};
}

}  // namespace kalah
