// value_lines.cpp: reading line blocks (layout in value_lines.h; coding them:
// value_lines_encode.cpp).
#include "db/value_lines.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "base/le_bytes.h"
#include "db/value_blocks.h"
#include "db/value_lines_code.h"

namespace kalah::value_lines {
namespace {

using namespace code;

[[noreturn]] void bad(const char* why) {
  throw std::runtime_error(why);
}

// What is wrong with line `bits` holding `count` values in parts of 2^g: its part offsets.
const char* check_line(const LineBits& bits, uint64_t count, int g) {
  const uint64_t n = parts(count, g);
  if ((n - 1) * kOffsetBits > kLineBits) return "more parts than its line holds";
  uint64_t start = (n - 1) * kOffsetBits;
  for (uint64_t p = 1; p < n; ++p) {
    const uint64_t at = bits.bits(kOffsetBits * static_cast<int>(p - 1), kOffsetBits);
    if (at < start || at > kLineBits) return "a part offset out of its line";
    start = at;
  }
  return nullptr;
}

}  // namespace

std::string View::check(const uint8_t* block, size_t size, uint64_t n, int symbols,
                        uint64_t number) {
  if (size < kLineBytes || size % kLineBytes || size < index_at(symbols))
    return "a size no line block has";
  if (get_le(block, 8) != value_blocks::checksum(block, size, number)) return "checksum mismatch";
  if (block[8] > kMaxK || block[9] > kMaxPartBits) return "a bad Rice parameter or part size";
  const uint64_t lines = get_le(block + 10, 2);
  if (lines == 0 || lines > n || lines_at(symbols, lines) + kLineBytes * lines != size)
    return "a line count its size does not hold";
  for (int c = 0; c <= symbols; ++c)
    if (block[kHead + c] >= symbols) return "a center no value of its layer has";
  for (uint64_t j = 0; j < lines; ++j) {
    const uint64_t f = get_le(block + index_at(symbols) + 2 * j, 2);
    const uint64_t e = j + 1 < lines ? get_le(block + index_at(symbols) + 2 * j + 2, 2) : n;
    if ((j == 0 && f != 0) || e <= f || e > n) return "a bad line index";
    const char* wrong =
        check_line(LineBits(block + lines_at(symbols, lines) + kLineBytes * j), e - f, block[9]);
    if (wrong) return wrong;
  }
  return {};
}

View::View(const uint8_t* block, size_t size, uint64_t n, int symbols, uint8_t* tables)
    : tables_(tables),
      n_(static_cast<uint32_t>(n)),
      symbols_(static_cast<uint8_t>(symbols)),
      k_(block[8]),
      part_bits_(block[9]) {
  const uint64_t lines = get_le(block + 10, 2);
  if (size < index_at(symbols) || k_ > kMaxK || part_bits_ > kMaxPartBits || lines == 0 ||
      lines > n || lines_at(symbols, lines) + kLineBytes * lines != size)
    bad("tables its size cannot hold");
  lines_ = static_cast<uint16_t>(lines);
  spans_ = static_cast<uint8_t>((n + (1 << kSpanBits) - 1) >> kSpanBits);
  scale_ = static_cast<uint32_t>(((lines << 32) + n - 1) / n);
  // Checked here, on the copy: the block's bytes may change after (a file rewritten in place).
  auto* contexts = const_cast<Context*>(this->contexts());
  for (int c = 0; c <= symbols; ++c) {
    const bool up = block[kHead + symbols + 1 + c / 8] >> (c % 8) & 1;
    contexts[c] = {block[kHead + c], static_cast<int8_t>(up ? 0 : -1)};
    if (contexts[c].center >= symbols) bad("a center no value of its layer has");
  }
  auto* index = const_cast<uint16_t*>(this->index());
  auto* spans = const_cast<uint16_t*>(this->spans());
  for (uint64_t j = 0; j < lines; ++j) {
    index[j] = static_cast<uint16_t>(get_le(block + index_at(symbols) + 2 * j, 2));
    if ((j == 0 && index[j] != 0) || (j > 0 && index[j] <= index[j - 1])) bad("a bad line index");
  }
  if (index[lines - 1] >= n) bad("a bad line index");
  for (uint64_t t = 0, j = 0; t < spans_; ++t) {
    while (j + 1 < lines && index[j + 1] <= t << kSpanBits) ++j;
    spans[t] = static_cast<uint16_t>(j);
  }
  spans[spans_] = static_cast<uint16_t>(lines - 1);
  lines_at_ = block + lines_at(symbols, lines);
}

uint64_t View::line_of(uint64_t i, uint64_t* first, uint64_t* count) const {
  // A guess between the lines of the span's first board and the next span's, then a step or two.
  const uint16_t* index = this->index();
  const uint16_t* span = spans() + (i >> kSpanBits);
  const uint64_t lo = span[0], hi = span[1];
  uint64_t j = lo + (((i & ((1 << kSpanBits) - 1)) * (hi - lo + 1)) >> kSpanBits);
  while (index[j] > i) --j;  // index[0] = 0
  while (j + 1 < lines_ && index[j + 1] <= i) ++j;
  *first = index[j];
  *count = (j + 1 < lines_ ? index[j + 1] : n_) - *first;
  return j;
}

void View::decode_part(uint64_t line, uint64_t count, uint64_t part, uint64_t to,
                       uint8_t* out) const {
  const LineBits bits(lines_at_ + kLineBytes * line);
  const int g = part_bits_;
  const uint64_t offsets = (parts(count, g) - 1) * kOffsetBits;
  if (__builtin_expect(offsets > kLineBits, 0)) bad("more parts than its line holds");
  const int pos =
      part == 0
          ? static_cast<int>(offsets)
          : static_cast<int>(bits.bits(kOffsetBits * static_cast<int>(part - 1), kOffsetBits));
  const Context* contexts = this->contexts();
  const unsigned symbols = symbols_;
  CodeReader codes(bits, pos, k_);
  int v = symbols_;  // a part's first value's context
  for (uint64_t i = 0, end = to - (part << g); i < end; ++i) {
    // d = zigzag⁻¹(r) = (r + 1) / 2 for odd r, -r / 2 for even, negated when the context counts
    // down first: a sign mask and no branch (the signs are as good as random).
    const int r = codes.rank();
    const Context c = contexts[v];
    const int negate = ((r & 1) - 1) ^ c.down;
    v = c.center + ((((r + 1) >> 1) ^ negate) - negate);
    if (__builtin_expect(static_cast<unsigned>(v) >= symbols, 0))
      bad("a value its layer cannot have");
    out[i] = static_cast<uint8_t>(v);
  }
  codes.check_end();
}

uint8_t View::at(uint64_t i) const {
  uint64_t first, count;
  const uint64_t line = line_of(i, &first, &count);
  const uint64_t part = (i - first) >> part_bits_;
  uint8_t values[256];
  decode_part(line, count, part, i - first + 1, values);
  return values[(i - first) & ((uint64_t{1} << part_bits_) - 1)];
}

void View::decode(uint8_t* out) const {
  const uint64_t size = uint64_t{1} << part_bits_;
  for (uint64_t j = 0; j < lines_; ++j) {
    const uint64_t first = index()[j], end = j + 1 < lines_ ? index()[j + 1] : n_;
    const uint64_t count = end - first;
    for (uint64_t p = 0; p * size < count; ++p)
      decode_part(j, count, p, std::min(count, (p + 1) * size), out + first + p * size);
  }
}

}  // namespace kalah::value_lines
