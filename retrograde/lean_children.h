// lean_children.h: lean mode's far children (docs/design.md §5), read from the layer files.
#pragma once

#include <memory>
#include <vector>

#include "db/layer_file.h"
#include "retrograde/far_children.h"

namespace kalah {

// The children in layers that lean mode does not hold raw: a chunk's children are bucketed by
// file block and each block touched is decoded once.
class LeanChildren final : public FarChildren {
 public:
  // files[t - 1] is layer t.
  LeanChildren(const std::vector<std::unique_ptr<LayerFile>>& files, uint64_t chunk_bytes);
  ~LeanChildren() override;
  uint64_t chunk_bytes() const override { return chunk_bytes_; }
  void resolve(const std::vector<std::span<const uint64_t>>& keys, uint8_t* values) override;

 private:
  struct Buffers;
  const std::vector<std::unique_ptr<LayerFile>>& files_;
  uint64_t chunk_bytes_;
  std::vector<uint64_t> first_block_;  // [t - 1]: the number of layer t's first block
  std::unique_ptr<Buffers> buffers_;   // reused from chunk to chunk
};

}  // namespace kalah
