// value_code.h: how a value is stored in a database byte (docs/design.md §3, §6). The builder
// writes and the reader decodes through these functions alone.
//
// With remainder "owner" every value of layer s has the parity of s and lies in [-s, s], so
// (V+s)/2 in 0..s fits a byte for s <= 254; with "discard" V+s in 0..2s fits for s <= 127. The
// byte 255 is never a value: the builder marks boards not computed yet with it.
#pragma once

#include <cstdint>

#include "game/rules.h"

namespace kalah {

// The encoding's id in a layer file's header: 1 for (V+s)/2 (owner), 2 for V+s (discard).
inline uint8_t value_encoding(const Rules& r) {
  return r.remainder == Remainder::kOwner ? 1 : 2;
}
// The largest layer whose encoded values stay below kUnknownValue.
inline int max_layer(const Rules& r) {
  return r.remainder == Remainder::kOwner ? 254 : 127;
}
inline constexpr uint8_t kUnknownValue = 0xFF;

inline uint8_t encode_value(const Rules& r, int s, int v) {
  return static_cast<uint8_t>(r.remainder == Remainder::kOwner ? (v + s) >> 1 : v + s);
}
inline int decode_value(const Rules& r, int s, uint8_t b) {
  return r.remainder == Remainder::kOwner ? 2 * b - s : b - s;
}

}  // namespace kalah
