// value_lines_code.h: the bits of a line block that its writer and its reader share (layout in
// db/value_lines.h; only value_lines*.cpp include this).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "base/le_bytes.h"
#include "db/value_lines.h"

namespace kalah::value_lines::code {

inline constexpr int kLineBits = 8 * kLineBytes;
inline constexpr int kOffsetBits = 9;
inline constexpr int kMaxK = 3;
inline constexpr int kEscapeZeros = 15;
inline constexpr int kLiteralBits = 9;  // a rank is at most 2·254
inline constexpr size_t kHead = 12;

// Contexts: each value's, and a part's first value's (context `symbols`).
inline size_t index_at(int symbols) {
  const size_t contexts = static_cast<size_t>(symbols) + 1;
  return kHead + contexts + (contexts + 7) / 8;
}
inline size_t lines_at(int symbols, uint64_t lines) {
  return (index_at(symbols) + 2 * lines + kLineBytes - 1) / kLineBytes * kLineBytes;
}
inline int code_bits(int rank, int k) {
  const int q = rank >> k;
  return q < kEscapeZeros ? q + 1 + k : kEscapeZeros + kLiteralBits;
}
inline constexpr int kMaxPartBits = 8;
inline uint64_t parts(uint64_t count, int g) {
  return (count + (uint64_t{1} << g) - 1) >> g;
}

// One line's bits read from a copy with zero words after it: a read never leaves the copy.
class LineBits {
 public:
  explicit LineBits(const uint8_t* line) {
    std::memcpy(words_, line, kLineBytes);
    for (int i = 0; i < 8; ++i) words_[i] = load_le64(&words_[i]);
  }
  // The 64 bits from pos on (pos <= 512).
  uint64_t window(int pos) const {
    const int w = pos >> 6, shift = pos & 63;
    const unsigned __int128 two = static_cast<unsigned __int128>(words_[w + 1]) << 64 | words_[w];
    return static_cast<uint64_t>(two >> shift);
  }
  uint64_t bits(int pos, int count) const { return window(pos) & ((uint64_t{1} << count) - 1); }

 private:
  uint64_t words_[10] = {};
};

// The codes of a line from pos on, a window at a time: each window holds two codes or more.
class CodeReader {
 public:
  CodeReader(const LineBits& line, int pos, int k)
      : line_(line), pos_(pos), window_(line.window(pos)), k_(k) {}
  // The next rank. Throws past the line's end.
  int rank() {
    if (used_ > 64 - kEscapeZeros - kLiteralBits) {
      pos_ += used_;
      if (__builtin_expect(pos_ > kLineBits, 0)) throw std::runtime_error("a code past its line");
      window_ = line_.window(pos_);
      used_ = 0;
    }
    const int zeros = __builtin_ctzll(window_ | uint64_t{1} << kEscapeZeros);
    int r, length;
    if (__builtin_expect(zeros < kEscapeZeros, 1)) {
      r = (zeros << k_) | static_cast<int>(window_ >> (zeros + 1) & ((1u << k_) - 1));
      length = zeros + 1 + k_;
    } else {
      r = static_cast<int>(window_ >> kEscapeZeros & ((1u << kLiteralBits) - 1));
      length = kEscapeZeros + kLiteralBits;
    }
    window_ >>= length;
    used_ += length;
    return r;
  }
  // Throws when the codes read ran past the line's end.
  void check_end() const {
    if (__builtin_expect(pos_ + used_ > kLineBits, 0))
      throw std::runtime_error("a code past its line");
  }

 private:
  const LineBits& line_;
  int pos_;
  uint64_t window_;
  int k_;
  int used_ = 0;
};

}  // namespace kalah::value_lines::code
