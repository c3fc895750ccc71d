// variants.h: the rule variants of a database directory that a command line asks for.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/file_names.h"
#include "tools/cli/cli.h"

namespace kalah {

// The variants of DIR, narrowed to those matching any rule flag or --pits given on the command
// line (`vm` tells which were given). Throws UsageError when nothing matches.
std::vector<VariantFiles> select_variants(const std::string& dir, const po::variables_map& vm,
                                          int pits, const RuleFlags& flags);

}  // namespace kalah
