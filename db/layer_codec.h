// layer_codec.h: the layer file formats (db/layer_file.h), one codec each. What differs between
// format versions is decided here, by the version, once: the writer codes blocks, the reader
// bounds the index, checks, decodes and probes blocks, `kalah info` names the coding, all through
// the codec the file's version selects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kalah {

struct LayerCodec {
  uint32_t version;  // header bytes 8..11
  uint8_t coding;    // header byte 19
  const char* name;  // the block coding, as `kalah info` says it
  // Whether a search probes the mapped file where it lies; if not, it decodes a block at a time
  // into a copy (format 1, db/decoded_layer.h).
  bool in_place;
  // In place: whether a probe goes through tables the reader prepares at a block's first check
  // (format 3's views, db/value_lines.h), not through `at` and `prefetch` below.
  bool views;

  // Block `number` of `count` values, each < symbols; zstd_level is format 1's.
  std::string (*encode)(const uint8_t* values, uint64_t count, int symbols, uint64_t number,
                        int zstd_level);
  // The most bytes a block of `boards` values can take: a larger index entry is damage.
  uint64_t (*max_size)(uint64_t boards, int symbols);
  // A block's checksum and structure (format 1: its frame decoded): "" or what is wrong.
  std::string (*check)(const uint8_t* block, size_t size, uint64_t boards, int symbols,
                       uint64_t number);
  // All of a block's values (a block of format 2 or 3 checked first). Throws std::runtime_error
  // on what the block cannot hold (damage, or bytes changed after the check).
  void (*decode)(const uint8_t* block, size_t size, uint64_t boards, int symbols, uint8_t* out);
  // In place without views, a checked block: the value at i, and the two loads a probe waits on
  // (the block's head and offsets, then the code stream). Throws as decode does.
  uint8_t (*at)(const uint8_t* block, size_t size, uint64_t boards, int symbols, uint64_t i);
  void (*prefetch)(const uint8_t* block, uint64_t boards, int symbols, uint64_t i);
  void (*prefetch_stream)(const uint8_t* block, uint64_t i);
};

inline constexpr uint32_t kFormatVersion = 3;  // what kalah writes unless told
inline constexpr uint32_t kOldestFormat = 1;   // the oldest it reads and writes
inline constexpr uint32_t kNewestFormat = 3;   // the newest

// The codec of a format version, or nullptr when this kalah knows no such version.
const LayerCodec* find_codec(uint32_t version);
// The same, or std::invalid_argument naming the versions this kalah reads and writes.
const LayerCodec& layer_codec(uint32_t version);
// "1..3": the versions, for messages.
std::string known_formats();

}  // namespace kalah
