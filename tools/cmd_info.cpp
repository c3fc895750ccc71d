// cmd_info.cpp: `kalah info`, describing a database directory.
#include <cstdio>
#include <iostream>

#include "db/census.h"
#include "tools/db_tools.h"

namespace kalah {
namespace {

constexpr CommandHelp kHelp = {
    "info", "kalah info --db DIR [--pits M] [rule flags]",
    "Describes every rule variant stored in DIR (or those the flags select): its layers, boards,\n"
    "bytes on disk, compression, and per layer how many boards the player to move wins, draws\n"
    "and loses with empty stores. Reads every block, so large databases take a few seconds.",
    "  kalah info --db db\n  kalah info --db db --capture empty\n"};

}  // namespace

int cmd_info(const std::vector<std::string>& args, bool check_only) {
  std::string dir;
  int pits = 6;
  RuleFlags flags;
  po::options_description desc("options");
  desc.add_options()("db", po::value(&dir)->required()->value_name("DIR"), "database directory")(
      "pits", po::value(&pits)->value_name("M"), "only databases of M pits per row");
  add_rule_options(desc, flags);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm) || check_only) return kExitOk;

  int status = kExitOk;
  for (const auto& v : select_variants(dir, vm, pits, flags)) {
    std::printf("m=%d %s: layers %d..%d (%zu files)\n", v.rules.pits, describe(v.rules).c_str(),
                v.layers.front(), v.layers.back(), v.layers.size());
    std::printf("%6s %14s %12s %12s %8s %12s %12s %12s\n", "layer", "boards", "bytes",
                "bytes/board", "ratio", "wins", "draws", "losses");
    uint64_t boards = 0, bytes = 0;
    int expected = 1;
    for (int s : v.layers) {
      if (s != expected) {
        std::printf("  layers %d..%d missing: the database cannot be opened\n", expected, s - 1);
        status = kExitFailure;
      }
      expected = s + 1;
      const std::string path = layer_path(dir, v.rules, s);
      try {
        const LayerFile f(path, v.rules, s);
        const auto& h = f.header();
        const auto wdl = count_results(f);
        std::printf(
            "%6d %14llu %12llu %12.3f %7.1fx %12llu %12llu %12llu\n", s,
            static_cast<unsigned long long>(h.boards), static_cast<unsigned long long>(h.file_size),
            static_cast<double>(h.file_size) / h.boards,
            static_cast<double>(h.boards) / h.file_size, static_cast<unsigned long long>(wdl.wins),
            static_cast<unsigned long long>(wdl.draws),
            static_cast<unsigned long long>(wdl.losses));
        boards += h.boards;
        bytes += h.file_size;
      } catch (const DatabaseError& e) {
        std::printf("%6d  error: %s\n", s, e.what());
        status = kExitFailure;
      }
    }
    std::printf("total: %llu boards, %s, %.3f bytes/board\n\n",
                static_cast<unsigned long long>(boards), human_bytes(bytes).c_str(),
                boards ? static_cast<double>(bytes) / boards : 0.0);
  }
  return status;
}

}  // namespace kalah
