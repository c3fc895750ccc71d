// value_blocks.h: the coded blocks of a layer file (format version 2), read where they lie.
//
// A block holds up to 65,536 encoded values (db/value_code.h) in rank order. Each value is coded
// by its rank among the values that followed the previous board's value in this block, most
// frequent first ("context" = the previous value; a mini-block's first board has a context of
// its own), and the rank by a Rice code. That is the previous-value model of docs/design.md §6.1:
// 2.6-3.5 bits a board on m = 6 (layers 14-22) with the offsets, where zstd over the same bytes
// took 2.3-2.9 but had to be decoded whole, into a copy of 8 bits a board, before a search could
// probe it. Every 32 boards start a mini-block at a recorded bit offset, so a probe decodes at
// most 32 values in place, from the mapped file.
//
// Layout (all integers little endian; C = symbols + 1 contexts, symbols = the layer's codes):
//
//   offset   size     field
//     0      8        checksum (base/checksum.h) of the block's number as 8 bytes, then of
//                     bytes [8, size): a block moved from elsewhere fails like a changed one
//     8      1        k, the Rice parameter (0..3)
//     9      1        reserved, 0
//    10      4        T, where the code stream starts
//    14      68·S     for each span of 1,024 boards: the bit offset of its first value (4 bytes),
//                     then for each of its 32 mini-blocks of 32 boards the bit offset from it (2)
//     O      2(C+1)   list offsets: context c's values by rank are bytes [L + o[c], L + o[c+1]),
//                     with L = O + 2(C+1)
//     T      ...      the code stream, bits least significant first, then 100 zero bytes
//
// A rank r < 15·2^k is coded as q = r >> k zero bits, a one bit, and the k low bits of r; a larger
// rank as 15 zero bits and 8 bits of r. No value takes more than 23 bits, so a span's offsets fit
// 16 bits, and a mini-block read from any start in the stream stays in its padding. Everything a
// probe reads before the stream sits at offsets known from n and the symbols alone, so a search
// can prefetch it with the leaf (View::prefetch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kalah {

namespace value_blocks {

inline constexpr uint64_t kSpan = 1024;
inline constexpr uint64_t kMini = 32;

// The coded block of values[0..n) (n <= 65,536), each < symbols (<= 255), as block `number`.
std::string encode(const uint8_t* values, uint64_t n, int symbols, uint64_t number);

// The largest block n values of `symbols` codes can take.
size_t max_size(uint64_t n, int symbols);

// The checksum a block's first 8 bytes must hold.
uint64_t checksum(const uint8_t* block, size_t size, uint64_t number);

// A coded block, its structure checked; the bytes must outlive it.
class View {
 public:
  // Checks the checksum (unless `trusted`) and the structure: an empty string, or what is wrong.
  static std::string check(const uint8_t* block, size_t size, uint64_t n, int symbols,
                           uint64_t number);
  // `size`, the block's bytes, comes from the file's index as the reader holds it: every read
  // stays inside the block whatever its bytes say, also when they changed after check() (a file
  // rewritten under the process), at a compare or two a probe.
  View(const uint8_t* block, size_t size, uint64_t n, int symbols);

  // The value at i < n. Throws std::runtime_error on a code or an offset the block cannot hold.
  uint8_t at(uint64_t i) const;
  // Starts loading what a probe of value i reads first.
  static void prefetch(const uint8_t* block, uint64_t n, int symbols, uint64_t i);
  // Then the code stream where a probe of value i starts (the block checked).
  static void prefetch_stream(const uint8_t* block, uint64_t i);
  // All n values; throws std::runtime_error on a code or an offset the block cannot hold.
  void decode(uint8_t* out) const;

 private:
  // The bit offset in the stream where the mini-block of value `first` starts.
  uint64_t mini_block_start(uint64_t first) const;

  const uint8_t* block_;
  uint64_t n_;
  int symbols_;
  int k_;
  const uint8_t* offsets_;  // O
  const uint8_t* lists_;    // L
  const uint8_t* stream_;   // T
  uint64_t list_bytes_;     // T - L: the lists' extent
  uint64_t stream_bits_;    // the stream's extent before its padding
};

}  // namespace value_blocks

}  // namespace kalah
