// census.cpp: win/draw/loss counts of a layer.
#include "db/census.h"

#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <vector>

namespace kalah {

ResultCounts count_results(const LayerFile& file) {
  const LayerHeader& h = file.header();
  tbb::combinable<ResultCounts> counts;
  tbb::parallel_for(uint64_t{0}, h.blocks, [&](uint64_t b) {
    thread_local std::vector<uint8_t> values;
    values.resize(file.block_boards(b));
    file.read_block(b, values.data());
    ResultCounts& c = counts.local();
    for (uint8_t e : values) {
      const int v = decode_value(h.rules, h.seeds, e);
      ++(v > 0 ? c.wins : v == 0 ? c.draws : c.losses);
    }
  });
  return counts.combine([](ResultCounts a, const ResultCounts& b) {
    return ResultCounts{a.wins + b.wins, a.draws + b.draws, a.losses + b.losses};
  });
}

}  // namespace kalah
