// decoded_layer.h: a layer's values decoded once into a plain file that every process maps
// (docs/design.md §6).
//
// A search touches nearly every block of its database; decoding them again in every process, into
// fresh memory the kernel must zero first, cost more than the search itself (docs/design.md §6).
// A decoded copy in DIR/decoded/ is written once and then shared through the page cache by every
// process that maps it: no decoding, no zeroing, one copy in memory however many searches run. It
// is derived data: deleting it is always safe.
//
// Layout, all integers little endian; values start at a page boundary so they can be mapped:
//
//   offset size  field
//     0     8    magic "KALAHVAL"
//     8     4    format version (1)
//    12     1    m        13 capture   14 end   15 remainder   (as in the layer file)
//    16     2    layer s
//    18     6    reserved, 0
//    24     8    boards
//    32     8    the layer file's body checksum: the values this copy was decoded from
//    40     8    checksum of bytes [0, 40)
//  4096          the encoded values, one byte per board in rank order
//
// A copy is used only when every field matches the layer file open now and its size is exact; any
// other copy is replaced. It is written to a temporary name, synced and renamed, like a layer
// file, so a copy under its final name is always complete.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "db/layer_file.h"

namespace kalah {

class DecodedLayer {
 public:
  // The decoded copy of `layer` in DIR/decoded, written first if missing or stale. Nothing (and
  // no file left behind) when it cannot be: a read-only directory, or too little free space
  // (after writing it, at least 1 GiB and a twentieth of the file system must stay free). A
  // damaged block of the layer throws its DatabaseError.
  static std::unique_ptr<DecodedLayer> open(const LayerFile& layer, const std::string& dir);
  ~DecodedLayer();
  DecodedLayer(const DecodedLayer&) = delete;
  DecodedLayer& operator=(const DecodedLayer&) = delete;

  const uint8_t* values() const { return base_ + kValuesOffset; }

  // The bytes of the current copy of `layer` in dir, 0 if there is none (for `kalah info`).
  static uint64_t present(const LayerFile& layer, const std::string& dir);
  // For `kalah verify`: decodes every block of `layer` (LayerFile::check_values, throwing as it
  // does) and compares them with the current copy in dir, if there is one. A copy that differs
  // is removed (the next search writes it again) and described in the returned message; empty
  // when there is no copy or it is right.
  static std::string check(const LayerFile& layer, const std::string& dir);

  static constexpr size_t kValuesOffset = 4096;
  static std::string path(const std::string& dir, const Rules& rules, int s);

 private:
  DecodedLayer(const uint8_t* base, size_t size) : base_(base), size_(size) {}
  // The current copy of `layer` in dir, mapped; nothing if it is missing or stale.
  static std::unique_ptr<DecodedLayer> map_current(const LayerFile& layer, const std::string& dir);
  const uint8_t* base_;
  size_t size_;
};

}  // namespace kalah
