// db_tools.h: what the database commands share: choosing variants, sizes for people.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/file_names.h"
#include "tools/cli.h"

namespace kalah {

// The variants of DIR, narrowed to those matching any rule flag or --pits given on the command
// line (`vm` tells which were given). Throws UsageError when nothing matches.
std::vector<VariantFiles> select_variants(const std::string& dir, const po::variables_map& vm,
                                          int pits, const RuleFlags& flags);

std::string human_bytes(double bytes);
// The process's peak resident memory so far (getrusage), in bytes.
uint64_t peak_memory_bytes();

}  // namespace kalah
