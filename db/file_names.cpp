// file_names.cpp: writing, parsing and listing layer file names.
#include "db/file_names.h"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <tuple>

#include "db/layer_file.h"
#include "game/notation.h"

namespace kalah {

std::string layer_file_name(const Rules& r, int s) {
  return variant_name(r) + "-s" + std::to_string(s) + ".kdb";
}

std::string layer_path(const std::string& dir, const Rules& rules, int s) {
  return dir + "/" + layer_file_name(rules, s);
}

std::optional<LayerName> parse_layer_file_name(const std::string& name) {
  // kalah-m<M>-<capture>-<end>-<remainder>-s<S>.kdb; "on-turn" holds a dash, so the fields are
  // read from both ends.
  const std::string prefix = "kalah-m", suffix = ".kdb";
  if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  const std::string body = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  const auto first = body.find('-'), last = body.rfind('-');
  if (first == std::string::npos || last <= first) return std::nullopt;
  const std::string middle = body.substr(first + 1, last - first - 1);  // capture-end-remainder
  const auto a = middle.find('-'), b = middle.rfind('-');
  if (a == std::string::npos || b <= a) return std::nullopt;
  const auto pits = parse_whole_number(body.substr(0, first), 1, kMaxPits);
  const auto seeds = parse_whole_number(body.substr(last + 2), 1, kMaxBoardSeeds);
  if (!pits || body[last + 1] != 's' || !seeds) return std::nullopt;
  try {
    LayerName n;
    n.rules.pits = static_cast<int>(*pits);
    n.rules.capture = parse_capture(middle.substr(0, a));
    n.rules.end = parse_end(middle.substr(a + 1, b - a - 1));
    n.rules.remainder = parse_remainder(middle.substr(b + 1));
    n.seeds = static_cast<int>(*seeds);
    // Only the canonical spelling: no leading zeros.
    if (layer_file_name(n.rules, n.seeds) != name) return std::nullopt;
    return n;
  } catch (const std::invalid_argument&) {  // an unknown rule
    return std::nullopt;
  }
}

std::vector<VariantFiles> list_variants(const std::string& dir) {
  std::vector<VariantFiles> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const auto n = parse_layer_file_name(entry.path().filename().string());
    if (!n) continue;
    auto it =
        std::find_if(out.begin(), out.end(), [&](const auto& v) { return v.rules == n->rules; });
    if (it == out.end()) it = out.insert(out.end(), VariantFiles{n->rules, {}});
    it->layers.push_back(n->seeds);
  }
  if (ec)
    throw DatabaseError(dir + ": cannot read the directory: " + ec.message(),
                        DatabaseError::Problem::kUnreadable);
  for (auto& v : out) std::sort(v.layers.begin(), v.layers.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return std::tuple(a.rules.pits, a.rules.capture, a.rules.end, a.rules.remainder) <
           std::tuple(b.rules.pits, b.rules.capture, b.rules.end, b.rules.remainder);
  });
  return out;
}

std::vector<std::string> stray_layer_files(const std::string& dir) {
  std::vector<std::string> strays;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("kalah-m", 0) == 0 && name.size() > 4 &&
        name.compare(name.size() - 4, 4, ".kdb") == 0 && !parse_layer_file_name(name))
      strays.push_back(name);
  }
  std::sort(strays.begin(), strays.end());
  return strays;
}

std::string describe_variants(const std::vector<VariantFiles>& variants) {
  if (variants.empty()) return "it holds no layer files";
  std::string out = "it holds";
  for (size_t i = 0; i < variants.size(); ++i) {
    const VariantFiles& v = variants[i];
    out += (i ? "; m=" : " m=") + std::to_string(v.rules.pits) + " " + describe(v.rules) +
           " layers " + std::to_string(v.layers.front());
    if (v.layers.size() > 1) out += ".." + std::to_string(v.layers.back());
  }
  return out;
}

std::string default_database_dir() {
  const auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return std::string(v ? v : "");
  };
  if (!env("KALAH_DB").empty()) return env("KALAH_DB");
  // The XDG base directory spec: a relative XDG_CACHE_HOME is ignored.
  if (env("XDG_CACHE_HOME").rfind('/', 0) == 0) return env("XDG_CACHE_HOME") + "/kalah/db";
  std::string home = env("HOME");
  if (home.rfind('/', 0) != 0) {  // unset or relative: the account's home directory
    const passwd* pw = ::getpwuid(::getuid());
    home = pw && pw->pw_dir ? pw->pw_dir : "";
  }
  if (home.rfind('/', 0) != 0 || home == "/") return "";
  return home + "/.cache/kalah/db";
}

}  // namespace kalah
