// database.cpp: finding layer files and a sharded LRU cache of decompressed blocks.
#include "db/database.h"

#include <algorithm>
#include <filesystem>
#include <regex>

namespace kalah {
namespace {

int count_layers(const std::string& dir, const Rules& rules, std::vector<int>* present) {
  for (const auto& v : list_variants(dir))
    if (v.rules == rules) {
      *present = v.layers;
      break;
    }
  int top = 0;
  while (top < static_cast<int>(present->size()) && (*present)[top] == top + 1) ++top;
  return top;
}

}  // namespace

std::vector<VariantFiles> list_variants(const std::string& dir) {
  static const std::regex name(
      R"(kalah-m([1-8])-(standard|empty)-(immediate|on-turn)-(owner|discard)-s([0-9]{1,3})\.kdb)");
  std::vector<VariantFiles> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::smatch mt;
    const std::string file = entry.path().filename().string();
    if (!std::regex_match(file, mt, name)) continue;
    Rules r;
    r.pits = std::stoi(mt[1]);
    r.capture = parse_capture(mt[2]);
    r.end = parse_end(mt[3]);
    r.remainder = parse_remainder(mt[4]);
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& v) { return v.rules == r; });
    if (it == out.end()) it = out.insert(out.end(), VariantFiles{r, {}});
    it->layers.push_back(std::stoi(mt[5]));
  }
  if (ec) throw DatabaseError(dir + ": cannot read the directory: " + ec.message());
  for (auto& v : out) std::sort(v.layers.begin(), v.layers.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return std::tuple(a.rules.pits, a.rules.capture, a.rules.end, a.rules.remainder) <
           std::tuple(b.rules.pits, b.rules.capture, b.rules.end, b.rules.remainder);
  });
  return out;
}

Database::Database(const std::string& dir, const Rules& rules, size_t cache_bytes)
    : rules_(rules),
      ranker_(rules.pits,
              [&] {
                if (!std::filesystem::is_directory(dir))
                  throw DatabaseError(dir + ": no such database directory");
                std::vector<int> present;
                const int top = count_layers(dir, rules, &present);
                const std::string what = "m=" + std::to_string(rules.pits) + " " + describe(rules);
                if (present.empty()) throw DatabaseError(dir + ": no layer files for " + what);
                if (top < static_cast<int>(present.size())) {
                  throw DatabaseError(dir + ": layer " + std::to_string(top + 1) + " of " + what +
                                      " is missing (layers up to " +
                                      std::to_string(present.back()) +
                                      " are present; a database needs every layer from 1)");
                }
                return top;
              }()),
      shard_limit_(std::max<size_t>(cache_bytes / kShards, 1)) {
  slots_.resize(ranker_.max_seeds() + 1);
  for (int s = 1; s <= ranker_.max_seeds(); ++s) {
    layers_.push_back(std::make_unique<LayerFile>(dir + "/" + layer_file_name(rules, s), rules, s));
    slots_[s] = std::vector<Slot>(layers_.back()->header().blocks);
  }
  uint64_t raw = 0;
  for (int s = 1; s <= max_seeds(); ++s) raw += layer(s).header().boards;
  resident_ = cache_bytes >= raw;
  if (resident_) {
    arenas_.resize(max_seeds() + 1);
    for (int s = 1; s <= max_seeds(); ++s) arenas_[s] = BigArray(layer(s).header().boards);
  }
}

Database::~Database() {
  if (resident_) return;  // the arenas own every block
  for (auto& layer : slots_)
    for (auto& slot : layer) delete[] slot.data.load();
}

uint8_t Database::encoded(int s, uint64_t r) const {
  const LayerFile& file = layer(s);
  const uint32_t per_block = file.header().boards_per_block;
  const uint64_t b = r / per_block;
  Shard& shard = shards_[b % kShards];
  Slot& slot = slots_[s][b];
  if (resident_) {
    if (const uint8_t* data = slot.data.load(std::memory_order_acquire)) return data[r % per_block];
    // Decoded in place under the lock: zstd scribbles ahead of its output while it works, so a
    // second decoder of the same block, or a reader, must never see a block being decoded.
    std::lock_guard lock(shard.mutex);
    if (const uint8_t* data = slot.data.load(std::memory_order_relaxed)) return data[r % per_block];
    uint8_t* data = arenas_[s].data() + b * per_block;
    file.read_block(b, data);
    slot.data.store(data, std::memory_order_release);
    return data[r % per_block];
  }
  {
    std::lock_guard lock(shard.mutex);
    if (const uint8_t* data = slot.data.load(std::memory_order_relaxed)) {
      slot.referenced = true;
      return data[r % per_block];
    }
  }
  // Decode outside the lock, into a buffer of our own; if another thread got there first, its
  // copy stays.
  const uint64_t size = file.block_boards(b);
  auto owned = std::make_unique_for_overwrite<uint8_t[]>(size);
  file.read_block(b, owned.get());
  const uint8_t value = owned[r % per_block];
  std::lock_guard lock(shard.mutex);
  if (slot.data.load(std::memory_order_relaxed)) return value;
  slot.data.store(owned.release(), std::memory_order_release);
  shard.resident.emplace_back(s, b);
  shard.bytes += size;
  while (shard.bytes > shard_limit_ && shard.resident.size() > 1) {
    if (shard.hand >= shard.resident.size()) shard.hand = 0;
    const auto [vs, vb] = shard.resident[shard.hand];
    Slot& victim = slots_[vs][vb];
    if (victim.referenced || (vs == s && vb == b)) {
      victim.referenced = false;
      ++shard.hand;
      continue;
    }
    delete[] victim.data.exchange(nullptr, std::memory_order_relaxed);
    shard.bytes -= layer(vs).block_boards(vb);
    shard.resident[shard.hand] = shard.resident.back();
    shard.resident.pop_back();
  }
  return value;
}

void Database::prefetch(const Board& b) const {
  const int s = seeds(b);
  const uint64_t r = ranker_.rank(b);
  const uint32_t per_block = layer(s).header().boards_per_block;
  if (const uint8_t* data = slots_[s][r / per_block].data.load(std::memory_order_acquire))
    __builtin_prefetch(data + r % per_block);
}

std::optional<int> Database::probe(const Board& b) const {
  if (is_terminal(rules_, b)) return terminal_value(rules_, b);
  const int s = seeds(b);
  if (s > max_seeds()) return std::nullopt;
  return decode_value(rules_, s, encoded(s, ranker_.rank(b)));
}

}  // namespace kalah
