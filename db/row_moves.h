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

#include "solver/rank.h"

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

}  // namespace kalah
