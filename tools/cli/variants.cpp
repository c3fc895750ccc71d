// variants.cpp: narrowing a directory's variants by the rule flags given.
#include "tools/cli/variants.h"

#include <cstdio>
#include <filesystem>

namespace kalah {

std::vector<VariantFiles> select_variants(const std::string& dir, const po::variables_map& vm,
                                          int pits, const RuleFlags& flags) {
  // A missing directory is the user's input, as for query (exit status 2), not a failure.
  if (!std::filesystem::is_directory(dir)) throw UsageError(dir + ": no such database directory");
  for (const auto& name : stray_layer_files(dir))
    std::fprintf(stderr, "note: ignoring %s/%s: not a layer file name kalah writes\n", dir.c_str(),
                 name.c_str());
  const Rules wanted = make_rules(vm.count("pits") ? pits : 1, flags);
  std::vector<VariantFiles> out;
  const std::vector<VariantFiles> variants = list_variants(dir);
  for (const auto& v : variants) {
    if (vm.count("pits") && v.rules.pits != pits) continue;
    if (!vm["capture"].defaulted() && v.rules.capture != wanted.capture) continue;
    if (!vm["end"].defaulted() && v.rules.end != wanted.end) continue;
    if (!vm["remainder"].defaulted() && v.rules.remainder != wanted.remainder) continue;
    out.push_back(v);
  }
  if (out.empty())
    throw UsageError(dir + ": no layer files of the rules asked for; " +
                     describe_variants(variants));
  return out;
}

}  // namespace kalah
