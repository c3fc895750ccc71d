// le_bytes.h: little-endian integers in byte buffers, as every kalah file stores them.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace kalah {

inline void put_le(unsigned char* p, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
inline uint64_t get_le(const unsigned char* p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
// get_le(p, 8) as one load, for hot loops.
inline uint64_t load_le64(const void* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

}  // namespace kalah
