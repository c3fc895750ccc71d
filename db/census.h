// census.h: how many boards of a layer the player to move wins, draws and loses.
#pragma once

#include <cstdint>

#include "db/layer_file.h"

namespace kalah {

struct ResultCounts {
  uint64_t wins = 0, draws = 0, losses = 0;
};

// Counts by V alone (empty stores); decodes every block of the file, in parallel.
ResultCounts count_results(const LayerFile& file);

}  // namespace kalah
