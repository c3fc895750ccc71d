// checksum.h: the 64-bit checksum of database files.
//
// A plain, documented hash so that files can be checked by anyone: the input is read as
// little-endian 64-bit words (the tail zero-padded), each mixed as h = rotl(h ^ (w * P1), 31) * P2,
// then the length is mixed in and the result avalanched. Not cryptographic; it catches flipped
// bits, truncation and misplaced blocks. Incremental: feed the bytes in any split.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace kalah {

class Checksum {
 public:
  void update(const void* data, size_t size) {
    auto p = static_cast<const unsigned char*>(data);
    length_ += size;
    if (pending_ != 0) {  // a word begun by the call before
      const size_t take = std::min<size_t>(size, 8 - pending_);
      std::memcpy(word_ + pending_, p, take);
      pending_ += take;
      p += take;
      size -= take;
      if (pending_ < 8) return;
      mix();
      pending_ = 0;
    }
    // Whole words loaded as words, not through a memcpy of a variable length a word (a call to
    // libc's memmove in the kalah build; docs/experiments.md, "The first probe's block checks").
    for (; size >= 8; p += 8, size -= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
      h_ = mix(h_, w);
    }
    std::memcpy(word_, p, size);  // the tail, under a word
    pending_ = size;
  }

  uint64_t digest() const {
    Checksum c = *this;
    if (c.pending_ > 0) {
      std::memset(c.word_ + c.pending_, 0, 8 - c.pending_);
      c.mix();
    }
    uint64_t h = c.h_ ^ (c.length_ * kP1);
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 33);
  }

  static uint64_t of(const void* data, size_t size) {
    Checksum c;
    c.update(data, size);
    return c.digest();
  }

  // One word mixed into a state: the step above, for hashes that keep states of their own.
  static uint64_t mix(uint64_t h, uint64_t w) {
    h ^= w * kP1;
    return ((h << 31) | (h >> 33)) * kP2;
  }

 private:
  static constexpr uint64_t kP1 = 0x9E3779B185EBCA87ull;
  static constexpr uint64_t kP2 = 0xC2B2AE3D27D4EB4Full;

  void mix() {
    uint64_t w = 0;
    for (int i = 7; i >= 0; --i) w = (w << 8) | word_[i];  // little endian on any host
    h_ = mix(h_, w);
  }

  uint64_t h_ = 0x27D4EB2F165667C5ull;
  uint64_t length_ = 0;
  unsigned char word_[8] = {};
  size_t pending_ = 0;
};

// A checksum (or any 64-bit value) as 16 lowercase hex digits, as the files write them.
inline std::string to_hex(uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

}  // namespace kalah
