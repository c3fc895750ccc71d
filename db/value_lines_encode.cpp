// value_lines_encode.cpp: coding line blocks (layout in value_lines.h).
#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>

#include "base/le_bytes.h"
#include "db/value_blocks.h"
#include "db/value_lines.h"
#include "db/value_lines_code.h"

namespace kalah::value_lines {
namespace {

using namespace code;

// Bits written into one line, least significant first, a word at a time.
class LineWriter {
 public:
  void put(uint64_t bits, int count) {  // count <= 32
    put_at(pos_, bits, count);
    pos_ += count;
  }
  void put_at(int pos, uint64_t bits, int count) {
    bits &= (uint64_t{1} << count) - 1;
    const int w = pos >> 6, shift = pos & 63;
    words_[w] |= bits << shift;
    if (shift) words_[w + 1] |= bits >> (64 - shift);
  }
  void rank(int r, int k) {
    const int q = r >> k;
    if (q < kEscapeZeros)
      put((uint64_t{1} | static_cast<uint64_t>(r) << 1) << q, q + 1 + k);
    else
      put(static_cast<uint64_t>(r) << kEscapeZeros, kEscapeZeros + kLiteralBits);
  }
  void skip(int bits) { pos_ += bits; }
  int pos() const { return pos_; }
  // Stores the line's 64 bytes (the caller has checked pos() <= 512).
  void store(unsigned char* line) const {
    for (int i = 0; i < 8; ++i) put_le(line + 8 * i, words_[i], 8);
  }

 private:
  uint64_t words_[10] = {};  // 512 bits and room for a code written past them
  int pos_ = 0;
};

struct Tables {
  std::vector<uint8_t> center;
  std::vector<int> up;  // 1 when the value above the center comes first, else -1
};

int zigzag(int d) {
  return d > 0 ? 2 * d - 1 : -2 * d;
}

// Bits of line [a, e) in parts of 2^g values, from the code lengths' prefix sums.
// (`first[i]`: value i's code as a part's first; `prefix`: the sums of the others' codes.)
uint64_t line_bits(const std::vector<uint64_t>& prefix, const std::vector<uint8_t>& first,
                   uint64_t a, uint64_t e, int g) {
  const uint64_t size = uint64_t{1} << g;
  uint64_t bits = (parts(e - a, g) - 1) * kOffsetBits;
  for (uint64_t p = a; p < e; p += size)
    bits += first[p] + prefix[std::min(e, p + size)] - prefix[p + 1];
  return bits;
}

}  // namespace

size_t max_size(uint64_t n, int symbols) {
  // A line holds at least 15 values: a part costs at most 9 + 8 bits for its first value, 24 a
  // code after it.
  const uint64_t lines = n / 15 + 1;
  return lines_at(symbols, lines) + kLineBytes * lines;
}

std::string encode(const uint8_t* values, uint64_t n, int symbols, uint64_t number, int g) {
  if (n == 0 || n > 65536 || symbols < 1 || symbols > 255 || g < 0 || g > kMaxPartBits)
    throw std::invalid_argument("a line block of 1..65,536 values, 1..255 codes, parts of 2^0..8");
  if (*std::max_element(values, values + n) >= symbols)
    throw std::invalid_argument("a line block's codes must be below " + std::to_string(symbols));
  // Each context's center (its most frequent next value, the smaller on a tie) and direction; a
  // part's first value's context counts every value.
  const int contexts = symbols + 1, start = symbols;
  std::vector<uint32_t> count(static_cast<size_t>(contexts) * (symbols + 2), 0);
  for (uint64_t i = 0; i < n; ++i) {
    ++count[start * (symbols + 2) + values[i] + 1];
    if (i > 0) ++count[values[i - 1] * (symbols + 2) + values[i] + 1];
  }
  Tables t{std::vector<uint8_t>(contexts), std::vector<int>(contexts)};
  for (int c = 0; c < contexts; ++c) {
    const uint32_t* cc = &count[static_cast<size_t>(c) * (symbols + 2) + 1];
    t.center[c] = static_cast<uint8_t>(std::max_element(cc, cc + symbols) - cc);
    t.up[c] = cc[t.center[c] + 1] > cc[t.center[c] - 1] ? 1 : -1;
  }
  auto rank_in = [&](int c, int v) { return zigzag((v - t.center[c]) * t.up[c]); };
  std::vector<int> rank(n, 0);
  for (uint64_t i = 1; i < n; ++i) rank[i] = rank_in(values[i - 1], values[i]);
  std::array<uint64_t, kMaxK + 1> total{};
  for (uint64_t i = 1; i < n; ++i)
    for (int k = 0; k <= kMaxK; ++k) total[k] += code_bits(rank[i], k);
  const int k = static_cast<int>(std::min_element(total.begin(), total.end()) - total.begin());
  std::vector<uint64_t> prefix(n + 1, 0);
  std::vector<uint8_t> first_bits(n);
  for (uint64_t i = 0; i < n; ++i) {
    prefix[i + 1] = prefix[i] + (i ? code_bits(rank[i], k) : 0);
    first_bits[i] = static_cast<uint8_t>(code_bits(rank_in(start, values[i]), k));
  }

  std::vector<uint64_t> first;  // each line's first value, greedily as many as fit
  for (uint64_t a = 0; a < n;) {
    first.push_back(a);
    uint64_t e = a + 1;
    while (e < n && line_bits(prefix, first_bits, a, e + 1, g) <= kLineBits) ++e;
    a = e;
  }
  const uint64_t lines = first.size();
  std::string out(lines_at(symbols, lines) + kLineBytes * lines, '\0');
  auto* block = reinterpret_cast<unsigned char*>(out.data());
  block[8] = static_cast<unsigned char>(k);
  block[9] = static_cast<unsigned char>(g);
  put_le(block + 10, lines, 2);
  for (int c = 0; c < contexts; ++c) {
    block[kHead + c] = t.center[c];
    if (t.up[c] > 0) block[kHead + contexts + c / 8] |= static_cast<unsigned char>(1 << (c % 8));
  }
  for (uint64_t j = 0; j < lines; ++j) {
    put_le(block + index_at(symbols) + 2 * j, first[j], 2);
    const uint64_t a = first[j], e = j + 1 < lines ? first[j + 1] : n;
    const uint64_t size = uint64_t{1} << g;
    LineWriter line;
    line.skip(static_cast<int>(parts(e - a, g) - 1) * kOffsetBits);
    for (uint64_t p = a, part = 0; p < e; p += size, ++part) {
      if (part > 0) line.put_at(kOffsetBits * static_cast<int>(part - 1), line.pos(), kOffsetBits);
      line.rank(rank_in(start, values[p]), k);
      for (uint64_t i = p + 1; i < std::min(e, p + size); ++i) line.rank(rank[i], k);
    }
    if (line.pos() > kLineBits) throw std::logic_error("a line coded past its 512 bits");
    line.store(block + lines_at(symbols, lines) + kLineBytes * j);
  }
  put_le(block, value_blocks::checksum(block, out.size(), number), 8);
  return out;
}

}  // namespace kalah::value_lines
