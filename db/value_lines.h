// value_lines.h: the coded blocks of a layer file (format version 3), read where they lie, a
// probe's codes in one 64-byte line.
//
// A block holds up to 65,536 encoded values (db/value_code.h) in rank order, in lines of 64 bytes
// each holding as many consecutive values as fit, coded by themselves: a probe reads the block's
// head (its tables and the line index) and one line, and decodes at most one part of that line.
// Each value is coded by the zigzag of its distance from the value that most often follows the
// previous board's value in this block (that context's "center"), by a Rice code; a part's first
// value, by its distance from the block's most frequent value (a context of its own). That is
// the previous-value model of docs/design.md §6.1 with one byte of table a context; per-context
// frequency lists would code 0.09 bits a board shorter and cost a table load a value
// (docs/experiments.md, "Line layouts").
//
// Block layout (all integers little endian; S = symbols, the layer's codes; every block is a
// multiple of 64 bytes, so every block and line of a file is 64-byte aligned):
//
//   offset   size      field
//     0      8         checksum (base/checksum.h) of the block's number as 8 bytes, then of bytes
//                      [8, size): a block moved from elsewhere fails like a changed one
//     8      1         k, the Rice parameter (0..3)
//     9      1         g: a line's parts hold 2^g values each (0..8)
//    10      2         L, lines (1 <= L <= n)
//    12      S+1       centers: context c's most frequent next value; context S, a part's first
//                      value's, the block's most frequent value
//    13+S    ⌈(S+1)/8⌉ directions: bit c set when context c codes the value above its center first
//     D      2L        line index: the first board of each line (0 for line 0, increasing, < n)
//     H      64L       the lines, H = D + 2L rounded up to 64
//
// Line j holds the c values from its first board to the next line's (n for the last), in
// P = ⌈c/2^g⌉ parts of 2^g values (the last may be shorter). Its bits, least significant first:
// for parts 2..P, the bit offset where the part starts (9 bits each); then each part's codes, one
// a value, its first in context S. A rank r = zigzag(d), d the distance from the center,
// counted up or down first as the direction says: r < 15·2^k is q = r >> k zero bits, a one bit,
// and the k low bits of r; a larger rank is 15 zero bits and r in 9 bits. A line never holds bits
// past 512.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kalah::value_lines {

inline constexpr size_t kLineBytes = 64;
inline constexpr int kPartBits = 5;  // g, what encode writes unless told (docs/experiments.md)

// The coded block of values[0..n) (1 <= n <= 65,536), each < symbols (<= 255), as block `number`,
// in lines of parts of 2^part_bits values (0..8).
std::string encode(const uint8_t* values, uint64_t n, int symbols, uint64_t number,
                   int part_bits = kPartBits);

// The largest block n values of `symbols` codes can take.
size_t max_size(uint64_t n, int symbols);

// A coded block as a probe reads it: its tables and line index copied into memory when it is
// made, so that a probe reads one line of the block (db/layer_file.h keeps one a block, their
// tables side by side in huge pages). The block's bytes and the tables' room must outlive it.
class alignas(32) View {
 public:
  // Checks the checksum and the structure: an empty string, or what is wrong.
  static std::string check(const uint8_t* block, size_t size, uint64_t n, int symbols,
                           uint64_t number);
  View() = default;  // no block: a place for one
  bool empty() const { return !tables_; }
  // The room a view of a block of `size` bytes and n values needs for its tables: at most this
  // many bytes, 2-aligned.
  static size_t tables_size(size_t size, uint64_t n, int symbols) {
    return 2 * (((n + (1 << kSpanBits) - 1) >> kSpanBits) + 1) + 2 * (size / kLineBytes) +
           2 * (symbols + 1);
  }
  // `size`, the block's bytes, comes from the file's index as the reader holds it: every read
  // stays inside the block whatever its bytes say, also when they changed after check() (a file
  // rewritten under the process). The tables go to `tables`, tables_size(size, n, symbols)
  // bytes. Throws std::runtime_error on tables the block cannot hold.
  View(const uint8_t* block, size_t size, uint64_t n, int symbols, uint8_t* tables);

  // The value at i < n. Throws std::runtime_error on a code the line cannot hold.
  uint8_t at(uint64_t i) const;
  // All n values; throws std::runtime_error as at() does.
  void decode(uint8_t* out) const;
  // Starts loading the tables that find value i's line (memory), then the line.
  void prefetch(uint64_t i) const {
    __builtin_prefetch(spans() + (i >> kSpanBits));
    __builtin_prefetch(index() + guess(i));
  }
  void prefetch_line(uint64_t i) const {
    uint64_t first, count;
    __builtin_prefetch(lines_at_ + kLineBytes * line_of(i, &first, &count));
    __builtin_prefetch(contexts());
  }

 private:
  struct Context {
    uint8_t center;
    int8_t down;  // 0 when the value above the center is coded first, else -1
  };
  static constexpr int kSpanBits = 10;  // spans of 1,024 boards
  uint64_t guess(uint64_t i) const { return (i * scale_) >> 32; }
  const uint16_t* spans() const { return reinterpret_cast<const uint16_t*>(tables_); }
  const uint16_t* index() const { return spans() + spans_ + 1; }
  const Context* contexts() const { return reinterpret_cast<const Context*>(index() + lines_); }
  // The line holding value i; its first value and how many it holds.
  uint64_t line_of(uint64_t i, uint64_t* first, uint64_t* count) const;
  // Decodes part `part` of line `line` (which holds `count` values) up to the line's value `to`
  // (exclusive, counted from the line's first) into out, out[0] being the part's first value.
  void decode_part(uint64_t line, uint64_t count, uint64_t part, uint64_t to, uint8_t* out) const;

  // 32 bytes, so that a probe reads one line of a file's views (db/layer_file.h).
  const uint8_t* lines_at_ = nullptr;  // H
  // For each span of 1,024 boards the line of its first board, then L - 1; each line's first
  // value (u16); each context's Context. Room given to the constructor, 2-aligned.
  const uint8_t* tables_ = nullptr;
  uint32_t n_ = 0;
  uint32_t scale_ = 0;  // guess(i) = i * lines / n without a division (lines <= n / 15 + 1)
  uint16_t lines_ = 0;
  uint8_t spans_ = 0;
  uint8_t symbols_ = 0;
  uint8_t k_ = 0;
  uint8_t part_bits_ = 0;
};

static_assert(sizeof(View) == 32);

}  // namespace kalah::value_lines
