// decoded_layer.h: a layer's values decoded once into a plain file that every process maps
// (docs/design.md §6).
//
// A search touches nearly every block of its database; decoding them again in every process, into
// fresh memory the kernel must zero first, cost more than the search itself (docs/design.md §6).
// A decoded copy in DIR/decoded/ is written once and then shared through the page cache by every
// process that maps it: no decoding, no zeroing, one copy in memory however many searches run. It
// is derived data: deleting it is always safe.
//
// Layout, all integers little endian; the table and the values start at page boundaries:
//
//   offset size  field
//     0     8    magic "KALAHVAL"
//     8     4    format version (3)
//    12     1    m        13 capture   14 end   15 remainder   (as in the layer file)
//    16     2    layer s
//    18     6    reserved, 0
//    24     8    boards
//    32     8    the layer file's body checksum: the values this copy was decoded from
//    40     8    checksum of bytes [0, 40)
//  4096   8·B    for each of the B blocks of 65,536 values: block_checksum of its values
//     V          the encoded values, one byte per board in rank order (V = 4096 + 8·B rounded
//                up to a page)
//
// block_checksum(values, n, seed) is XXH3's 64-bit hash of the n values with that seed (xxHash
// 0.8, whose output is fixed across versions and hosts): fast enough that checking every block a
// search reads costs it a few per cent (docs/design.md §6).
// The seed is the layer file's body checksum plus the block's number, so a block moved from
// elsewhere (another place, another layer) fails as surely as changed values.
//
// Trust: a copy is mapped only when every header field matches the layer file open now and its
// size is exact; any other copy is replaced. Each block is checked against its checksum the first
// time a process reads it, so a damaged value (bit rot, a half-written backup, a planted file) is
// never used: a block that fails is decoded from the layer file instead and the copy is removed
// (the next opener writes it again). A copy changed under a running process (written in place,
// truncated: a read past its end is caught, not fatal) is noticed by changed(), which callers ask
// after an answer. Copies are written to a temporary name, synced and renamed, like layer files, so
// a copy under its final name is always complete.
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

  // The values, unchecked: for prefetching, or after checked(b) said block b is right.
  const uint8_t* values() const { return values_; }
  // Whether block b's values match their checksum (about 10 µs a block). Thread-safe.
  bool checked(uint64_t b) const;
  // Whether the file was written or truncated since it was mapped (its size or modification time
  // differ) or read past its end: values read from it may be wrong. One fstat. Thread-safe.
  bool changed() const;
  // Removes the copy from its directory (once its damage is found): the next opener rewrites it.
  void remove() const;

  // The bytes of the current copy of `layer` in dir, 0 if there is none (for `kalah info`).
  static uint64_t present(const LayerFile& layer, const std::string& dir);
  // For `kalah verify`: decodes every block of `layer` (LayerFile::check_values, throwing as it
  // does) and compares them with the current copy in dir, if there is one. A copy that differs
  // is removed (the next search writes it again) and described in the returned message; empty
  // when there is no copy or it is right.
  static std::string check(const LayerFile& layer, const std::string& dir);

  static constexpr size_t kTableOffset = 4096;
  // Where the values of a copy of a layer of `boards` boards start.
  static uint64_t values_offset(uint64_t boards);
  static std::string path(const std::string& dir, const Rules& rules, int s);
  // The checksum of a block's values in a copy (the layout above).
  static uint64_t block_checksum(const uint8_t* values, uint64_t n, uint64_t seed);

  struct Mapping;  // the file and its mapping (decoded_layer.cpp)
  explicit DecodedLayer(std::unique_ptr<Mapping> m);

 private:
  // The current copy of `layer` in dir, mapped; nothing if it is missing or stale.
  static std::unique_ptr<DecodedLayer> map_current(const LayerFile& layer, const std::string& dir);
  std::unique_ptr<Mapping> map_;
  const uint8_t* values_;
};

}  // namespace kalah
