// far_children.h: children that the process computing a layer does not hold raw (docs/design.md
// §5, "far children"), and how a chunk of boards names them.
//
// A chunk of boards lists its far children, has them resolved in one go, then computes. Lean mode
// reads them from the layer files (retrograde/lean_children.h); a build over several processes asks
// the processes that hold them (mpi/exchange.h), and shares the layer being computed out by row
// pairs.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace kalah {

// A far child as a chunk lists it: its layer in the top 8 bits, its rank below.
inline constexpr int kFarLayerShift = 56;
inline constexpr uint64_t kFarRankMask = (uint64_t{1} << kFarLayerShift) - 1;
inline uint64_t far_key(int layer, uint64_t rank) {
  return uint64_t(layer) << kFarLayerShift | rank;
}
inline int far_layer(uint64_t key) {
  return static_cast<int>(key >> kFarLayerShift);
}
inline uint64_t far_rank(uint64_t key) {
  return key & kFarRankMask;
}

// What one far child costs a chunk in memory: its key and value in the lists (9 bytes) and the
// resolver's sorting of it (8). A resolver's chunk_bytes() divided by this bounds a chunk.
inline constexpr uint64_t kFarChildBytes = 17;

class FarChildren {
 public:
  virtual ~FarChildren() = default;
  // Whether the boards of lower layer t whose mover row holds k seeds are far although lower[t]
  // is given (another process holds them); a null lower[t] is far anyway.
  virtual bool elsewhere(int /*t*/, int /*k*/) const { return false; }
  // Whether this process computes row pair k (k <= s - k) of the layer.
  virtual bool computes(int /*k*/) const { return true; }
  // Bytes a chunk's lists of children may take (kFarChildBytes a child).
  virtual uint64_t chunk_bytes() const = 0;
  // keys[i] lists the far children of a chunk's tile i (far_key); sets the values that follow
  // `values` tile by tile (keys[0]'s first, then keys[1]'s, ...) to their encoded values. Called
  // from the thread that called compute_layer.
  virtual void resolve(const std::vector<std::span<const uint64_t>>& keys, uint8_t* values) = 0;
  // Called once the process's last chunk of the layer is resolved.
  virtual void finish() {}
};

}  // namespace kalah
