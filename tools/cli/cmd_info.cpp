// cmd_info.cpp: `kalah info`, describing a database directory.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

#include "base/units.h"
#include "db/census.h"
#include "db/decoded_layer.h"
#include "query/json_parts.h"
#include "store/answer_store.h"
#include "tools/cli/progress_line.h"
#include "tools/cli/variants.h"

namespace kalah {
namespace {

constexpr CommandHelp kHelp = {
    "info", "kalah info [--db DIR] [--pits M] [rule flags] [--json]",
    "Describes every rule variant stored in DIR (or those the flags select): its layers, boards,\n"
    "bytes on disk, compression, and per layer how many boards the player to move wins, draws\n"
    "and loses with empty stores, and the kalah version that wrote it. Reads every block, so\n"
    "large databases take a few seconds.",
    "  kalah info --db db\n  kalah info --db db --capture empty --json\n"};

// One layer's line of the table, or its error.
struct LayerInfo {
  int seeds = 0;
  uint64_t boards = 0, bytes = 0;
  ResultCounts wdl;
  std::string writer;    // the kalah version that wrote the file
  uint32_t format = 0;   // its format (db/layer_file.h)
  uint64_t decoded = 0;  // bytes of the current decoded copy (db/decoded_layer.h), if any
  std::string error;
};

LayerInfo read_layer(const std::string& dir, const Rules& rules, int s) {
  LayerInfo info;
  info.seeds = s;
  try {
    const LayerFile f(layer_path(dir, rules, s), rules, s);
    info.boards = f.header().boards;
    info.bytes = f.header().file_size;
    info.writer = writer_version(f.header());
    info.format = f.header().version;
    info.wdl = count_results(f);
    info.decoded = DecodedLayer::present(f, dir);
  } catch (const FileError& e) {
    info.error = e.what();
  }
  return info;
}

JsonObject layer_json(const LayerInfo& l) {
  JsonObject j;
  j.add("seeds", l.seeds);
  if (!l.error.empty()) return j.add("error", l.error);
  return j.add("boards", l.boards)
      .add("bytes", l.bytes)
      .add("bytes_per_board", static_cast<double>(l.bytes) / l.boards)
      .add("wins", l.wdl.wins)
      .add("draws", l.wdl.draws)
      .add("losses", l.wdl.losses)
      .add("written_by", l.writer)
      .add("format", static_cast<int>(l.format))
      .add("coding", find_codec(l.format)->name);
}

// What else is in the directory: anything but the layer files of its variants, the lock file and
// the decoded copies of those layers (temporaries, stale copies, names kalah does not write), with
// their sizes, so that info accounts for every byte kalah may have left there.
std::vector<std::pair<std::string, uint64_t>> other_files(const std::string& dir) {
  std::set<std::string> known = {"kalah.lock", "decoded", "answers"};
  for (const VariantFiles& v : list_variants(dir))
    for (const int s : v.layers) {
      known.insert(layer_file_name(v.rules, s));
      known.insert("decoded/" +
                   std::filesystem::path(DecodedLayer::path(dir, v.rules, s)).filename().string());
    }
  std::vector<std::pair<std::string, uint64_t>> out;
  std::error_code ec;
  for (const std::string sub : {"", "decoded/"})
    for (const auto& e : std::filesystem::directory_iterator(dir + "/" + sub, ec)) {
      const std::string name = sub + e.path().filename().string();
      if (known.count(name)) continue;
      std::error_code size_ec;
      const uint64_t bytes = e.is_regular_file() ? e.file_size(size_ec) : 0;
      out.emplace_back(name, size_ec ? 0 : bytes);
    }
  std::sort(out.begin(), out.end());
  return out;
}

void print_other_files(const std::string& dir, bool json) {
  const auto others = other_files(dir);
  if (others.empty()) return;
  if (json) {
    std::vector<JsonObject> list;
    for (const auto& [name, bytes] : others)
      list.push_back(JsonObject().add("name", name).add("bytes", bytes));
    std::cout << kalah_json("info").add("db", dir).add("other_files", list).str() << std::endl;
    return;
  }
  uint64_t total = 0;
  std::string names;
  for (size_t i = 0; i < others.size(); ++i) {
    total += others[i].second;
    if (i < 10) names += (i ? ", " : "") + others[i].first;
  }
  std::printf("other files in %s: %zu (%s): %s%s\n", dir.c_str(), others.size(),
              human_bytes(total).c_str(), names.c_str(), others.size() > 10 ? ", ..." : "");
}

// What info says of one variant: its layers, the ones missing, the totals, its answer store.
struct VariantInfo {
  Rules rules;
  std::vector<int> seeds;  // the layers present
  std::vector<LayerInfo> layers;
  std::vector<int> missing;
  uint64_t boards = 0, bytes = 0, decoded_bytes = 0;
  AnswerStore::Census stored;
  bool ok = true;
};

VariantInfo read_variant(const std::string& dir, const VariantFiles& v) {
  VariantInfo info;
  info.rules = v.rules;
  info.seeds = v.layers;
  ProgressLine line;  // every value is read: seconds for a big database
  for (int s : v.layers) {
    line.show(variant_name(v.rules) + ": reading layer " + std::to_string(s) + " of " +
              std::to_string(v.layers.back()) + "...");
    info.layers.push_back(read_layer(dir, v.rules, s));
  }
  line.clear();
  for (int s = 1; s <= v.layers.back(); ++s)
    if (!std::binary_search(v.layers.begin(), v.layers.end(), s)) info.missing.push_back(s);
  for (const LayerInfo& l : info.layers) {
    info.boards += l.boards;
    info.bytes += l.bytes;
    info.decoded_bytes += l.decoded;
    if (!l.error.empty()) info.ok = false;
  }
  if (!info.missing.empty()) info.ok = false;
  info.stored = AnswerStore::census(dir, v.rules);
  return info;
}

void print_variant_json(const std::string& dir, const VariantInfo& v) {
  std::vector<JsonObject> list;
  for (const LayerInfo& l : v.layers) list.push_back(layer_json(l));
  std::cout << variant_json("info", v.rules)
                   .add("db", dir)
                   .add("layers", list)
                   .add("missing_layers", v.missing)
                   .add("boards", v.boards)
                   .add("bytes", v.bytes)
                   .add("bytes_per_board", v.boards ? static_cast<double>(v.bytes) / v.boards : 0.0)
                   .add("decoded_bytes", v.decoded_bytes)
                   .add("stored_answers", v.stored.answers)
                   .add("stored_answer_bytes", v.stored.answer_bytes)
                   .add("book_positions", v.stored.book)
                   .add("book_bytes", v.stored.book_bytes)
                   .str()
            << std::endl;
}

void print_layer_table(const VariantInfo& v) {
  std::printf("%6s %14s %12s %12s %8s %12s %12s %12s  %s\n", "layer", "boards", "bytes",
              "bytes/board", "ratio", "wins", "draws", "losses", "format, written by");
  for (const LayerInfo& l : v.layers) {
    if (!l.error.empty()) {
      std::printf("%6d  error: %s\n", l.seeds, l.error.c_str());
      continue;
    }
    std::printf("%6d %14llu %12llu %12.3f %7.1fx %12llu %12llu %12llu  %u, %s\n", l.seeds,
                static_cast<unsigned long long>(l.boards), static_cast<unsigned long long>(l.bytes),
                static_cast<double>(l.bytes) / l.boards, static_cast<double>(l.boards) / l.bytes,
                static_cast<unsigned long long>(l.wdl.wins),
                static_cast<unsigned long long>(l.wdl.draws),
                static_cast<unsigned long long>(l.wdl.losses), l.format, l.writer.c_str());
  }
}

void print_variant_text(const std::string& dir, const VariantInfo& v) {
  std::printf("m=%d %s: layers %d..%d (%zu files)\n", v.rules.pits, describe(v.rules).c_str(),
              v.seeds.front(), v.seeds.back(), v.seeds.size());
  for (size_t i = 0; i < v.missing.size();) {  // each run of missing layers
    size_t j = i;
    while (j + 1 < v.missing.size() && v.missing[j + 1] == v.missing[j] + 1) ++j;
    std::printf("  layers %d..%d missing: the database cannot be opened\n", v.missing[i],
                v.missing[j]);
    i = j + 1;
  }
  print_layer_table(v);
  std::printf("total: %llu boards, %s, %.3f bytes/board\n",
              static_cast<unsigned long long>(v.boards), human_bytes(v.bytes).c_str(),
              v.boards ? static_cast<double>(v.bytes) / v.boards : 0.0);
  if (v.decoded_bytes > 0)
    std::printf("decoded copies for searches: %s in %s/decoded (safe to delete)\n",
                human_bytes(v.decoded_bytes).c_str(), dir.c_str());
  if (v.stored.answers + v.stored.book > 0)
    std::printf("answer store: %llu answer%s (%s), opening book: %llu position%s (%s)\n",
                static_cast<unsigned long long>(v.stored.answers), v.stored.answers == 1 ? "" : "s",
                human_bytes(v.stored.answer_bytes).c_str(),
                static_cast<unsigned long long>(v.stored.book), v.stored.book == 1 ? "" : "s",
                human_bytes(v.stored.book_bytes).c_str());
  std::printf("\n");
}

}  // namespace

int cmd_info(const std::vector<std::string>& args, bool check_only) {
  std::string dir;
  int pits = 6;
  RuleFlags flags;
  bool json = false;
  po::options_description desc("options");
  add_db_option(desc, dir, "database directory");
  desc.add_options()("pits", po::value(&pits)->value_name("M"), "only databases of M pits per row")(
      "json", po::bool_switch(&json), "one JSON object per rule variant, one per line");
  add_rule_options(desc, flags);
  po::variables_map vm;
  if (!parse_command(kHelp, desc, nullptr, args, vm) || check_only) return kExitOk;

  int status = kExitOk;
  for (const auto& files : select_variants(dir, vm, pits, flags)) {
    const VariantInfo v = read_variant(dir, files);
    if (!v.ok) status = kExitFailure;
    if (json)
      print_variant_json(dir, v);
    else
      print_variant_text(dir, v);
  }
  print_other_files(dir, json);
  return status;
}

}  // namespace kalah
