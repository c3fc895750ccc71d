// db_tools.cpp: shared helpers of the database commands.
#include "tools/db_tools.h"

#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <cstdio>

namespace kalah {

std::vector<VariantFiles> select_variants(const std::string& dir, const po::variables_map& vm,
                                          int pits, const RuleFlags& flags) {
  const Rules wanted = make_rules(vm.count("pits") ? pits : 1, flags);
  std::vector<VariantFiles> out;
  for (const auto& v : list_variants(dir)) {
    if (vm.count("pits") && v.rules.pits != pits) continue;
    if (!vm["capture"].defaulted() && v.rules.capture != wanted.capture) continue;
    if (!vm["end"].defaulted() && v.rules.end != wanted.end) continue;
    if (!vm["remainder"].defaulted() && v.rules.remainder != wanted.remainder) continue;
    out.push_back(v);
  }
  if (out.empty()) throw UsageError(dir + ": no database files (of the rules asked for)");
  return out;
}

std::array<uint64_t, 3> count_results(const LayerFile& file) {
  const LayerHeader& h = file.header();
  tbb::combinable<std::array<uint64_t, 3>> counts([] { return std::array<uint64_t, 3>{}; });
  tbb::parallel_for(uint64_t{0}, h.blocks, [&](uint64_t b) {
    thread_local std::vector<uint8_t> values;
    values.resize(file.block_boards(b));
    file.read_block(b, values.data());
    auto& c = counts.local();
    for (uint8_t e : values) {
      const int v = decode_value(h.rules, h.seeds, e);
      ++c[v > 0 ? 0 : v == 0 ? 1 : 2];
    }
  });
  return counts.combine([](auto a, const auto& b) {
    for (int i = 0; i < 3; ++i) a[i] += b[i];
    return a;
  });
}

std::string human_bytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", b, units[u]);
  return buf;
}

}  // namespace kalah
