// database.cpp: opening the layers of one variant and answering probes through the block cache.
#include "db/database.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "base/machine.h"

namespace kalah {
namespace {

// The top layer of a gapless run 1..S of `rules` in dir. A directory without layers of the rules
// is the caller's mistake (std::invalid_argument, saying what it holds); a gap is damage.
int top_layer(const std::string& dir, const Rules& rules) {
  if (!std::filesystem::is_directory(dir))
    throw std::invalid_argument(dir + ": no such database directory");
  std::vector<int> present;
  const std::vector<VariantFiles> variants = list_variants(dir);
  for (const auto& v : variants)
    if (v.rules == rules) present = v.layers;
  const std::string what = "m=" + std::to_string(rules.pits) + " " + describe(rules);
  if (present.empty())
    throw std::invalid_argument(dir + ": no layer files for " + what + "; " +
                                describe_variants(variants));
  int top = 0;
  while (top < static_cast<int>(present.size()) && present[top] == top + 1) ++top;
  if (top < static_cast<int>(present.size()))
    throw DatabaseError(dir + ": layer " + std::to_string(top + 1) + " of " + what +
                        " is missing (layers up to " + std::to_string(present.back()) +
                        " are present; a database needs every layer from 1)");
  return top;
}

}  // namespace

Database::Database(const std::string& dir, const Rules& rules, size_t cache_bytes)
    : dir_(dir), rules_(rules), ranker_(rules.pits, top_layer(dir, rules)) {
  for (int s = 1; s <= ranker_.max_seeds(); ++s)
    layers_.push_back(std::make_unique<LayerFile>(layer_path(dir, rules, s), rules, s));
  // A probe of a layer read in place waits on dependent loads (LayerFile::prefetch_again). The
  // views get a stage of their own once they outgrow the caches: at 34 seeds (19 MB) that was
  // 10-16 % more nodes a second; at 22 (270 KB) the extra pass cost 4 % (docs/experiments.md).
  uint64_t views = 0;
  for (const auto& layer : layers_) {
    if (layer->in_place()) prefetch_stages_ = 1;
    views += layer->in_place() ? layer->views_bytes() : 0;
  }
  if (views > kViewsInCache) {
    prefetch_stages_ = 2;
    for (const auto& layer : layers_) layer->load_views_apart(true);
  }
  cache_ = std::make_unique<BlockCache>(layers_, cache_bytes, dir);
}

size_t Database::search_cache_bytes() {
  // Under MPI every process on the machine decodes blocks of its own (db/block_cache.h).
  return static_cast<size_t>(usable_memory() / 2 / processes_on_this_machine());
}

std::optional<int> Database::probe(const Board& b) const {
  if (is_terminal(rules_, b)) return terminal_value(rules_, b);
  const int s = seeds(b);
  if (s > max_seeds()) return std::nullopt;
  return value_at(b, ranker_.rank(b));
}

int Database::value_at(const Board& b, uint64_t rank) const {
  const int s = seeds(b);
  return decode_value(rules_, s, encoded(s, rank));
}

}  // namespace kalah
