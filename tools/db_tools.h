// db_tools.h: what info, verify and bench share: choosing variants and scanning layer values.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "db/database.h"
#include "tools/cli.h"

namespace kalah {

// The variants of DIR, narrowed to those matching any rule flag or --pits given on the command
// line (`vm` tells which were given). Throws UsageError when nothing matches.
std::vector<VariantFiles> select_variants(const std::string& dir, const po::variables_map& vm,
                                          int pits, const RuleFlags& flags);

// Win/draw/loss counts of a layer for the player to move with empty stores (decodes every block,
// in parallel).
std::array<uint64_t, 3> count_results(const LayerFile& file);

std::string human_bytes(double bytes);

}  // namespace kalah
