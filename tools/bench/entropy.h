// entropy.h: the empirical conditional entropy of values given a context, per block of a layer
// file (the experiments' measure of what a coder with one table a block could reach).
#pragma once

#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace kalah {

// Sum over blocks of each block's n·H(value | context).
class Entropy {
 public:
  void add(uint64_t context, int value) {
    auto& counts = table_[context];
    if (counts.size() <= static_cast<size_t>(value)) counts.resize(value + 1);
    ++counts[value];
  }
  void end_block() {
    for (const auto& [context, counts] : table_) {
      uint64_t total = 0;
      for (uint64_t c : counts) total += c;
      for (uint64_t c : counts)
        if (c) bits_ -= static_cast<double>(c) * std::log2(static_cast<double>(c) / total);
    }
    table_.clear();
  }
  double bits() const { return bits_; }

 private:
  std::unordered_map<uint64_t, std::vector<uint64_t>> table_;
  double bits_ = 0;
};

}  // namespace kalah
