// value_lines.cpp: coding and reading line blocks (layout in value_lines.h).
#include "db/value_lines.h"

#include <endian.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "base/le_bytes.h"
#include "db/value_blocks.h"

namespace kalah::value_lines {
namespace {

constexpr int kLineBits = 8 * kLineBytes;
constexpr int kOffsetBits = 9;
constexpr int kMaxK = 3;
constexpr int kEscapeZeros = 15;
constexpr int kLiteralBits = 9;  // a rank is at most 2·254
constexpr size_t kHead = 12;

int width(int symbols) {
  int w = 0;
  while ((1 << w) < symbols) ++w;
  return w;
}
size_t index_at(int symbols) {
  return kHead + static_cast<size_t>(symbols) + (static_cast<size_t>(symbols) + 7) / 8;
}
size_t lines_at(int symbols, uint64_t lines) {
  return (index_at(symbols) + 2 * lines + kLineBytes - 1) / kLineBytes * kLineBytes;
}
int code_bits(int rank, int k) {
  const int q = rank >> k;
  return q < kEscapeZeros ? q + 1 + k : kEscapeZeros + kLiteralBits;
}
bool valid_parts(int p) {
  return p == 1 || p == 2 || p == 4;
}

// Bits written into one line, least significant first.
class LineWriter {
 public:
  explicit LineWriter(unsigned char* line) : line_(line) {}
  void put(uint64_t bits, int count) {  // count <= 32
    for (int b = 0; b < count; ++b, ++pos_)
      if (bits >> b & 1) line_[pos_ >> 3] |= static_cast<unsigned char>(1 << (pos_ & 7));
  }
  void put_at(int pos, uint64_t bits, int count) {
    const int keep = pos_;
    pos_ = pos;
    put(bits, count);
    pos_ = keep;
  }
  void rank(int r, int k) {
    const int q = r >> k;
    if (q < kEscapeZeros)
      put((uint64_t{1} | static_cast<uint64_t>(r) << 1) << q, q + 1 + k);
    else
      put(static_cast<uint64_t>(r) << kEscapeZeros, kEscapeZeros + kLiteralBits);
  }
  int pos() const { return pos_; }

 private:
  unsigned char* line_;
  int pos_ = 0;
};

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

struct Tables {
  std::vector<uint8_t> center;
  std::vector<int> up;  // 1 when the value above the center comes first, else -1
};

int zigzag(int d) {
  return d > 0 ? 2 * d - 1 : -2 * d;
}

// Bits of line [a, e) in `parts` parts, from the code lengths' prefix sums.
uint64_t line_bits(const std::vector<uint64_t>& prefix, uint64_t a, uint64_t e, int parts, int w) {
  uint64_t bits = static_cast<uint64_t>(parts - 1) * kOffsetBits;
  const uint64_t size = (e - a + parts - 1) / parts;
  for (uint64_t p = a; p < e; p += size)
    bits += static_cast<uint64_t>(w) + prefix[std::min(e, p + size)] - prefix[p + 1];
  return bits;
}

[[noreturn]] void bad(const char* why) {
  throw std::runtime_error(why);
}

}  // namespace

size_t max_size(uint64_t n, int symbols) {
  // A line holds at least 20 values: 27 bits of offsets, 4 raw values and codes of 24 bits.
  const uint64_t lines = n / 16 + 1;
  return lines_at(symbols, lines) + kLineBytes * lines;
}

std::string encode(const uint8_t* values, uint64_t n, int symbols, uint64_t number, int parts) {
  if (n == 0 || n > 65536 || symbols < 1 || symbols > 255 || !valid_parts(parts))
    throw std::invalid_argument("a line block of 1..65,536 values, 1..255 codes, 1, 2 or 4 parts");
  if (*std::max_element(values, values + n) >= symbols)
    throw std::invalid_argument("a line block's codes must be below " + std::to_string(symbols));
  // Each context's center (its most frequent next value, the smaller on a tie) and direction.
  std::vector<uint32_t> count(static_cast<size_t>(symbols) * (symbols + 2), 0);
  for (uint64_t i = 1; i < n; ++i) ++count[values[i - 1] * (symbols + 2) + values[i] + 1];
  Tables t{std::vector<uint8_t>(symbols), std::vector<int>(symbols)};
  for (int c = 0; c < symbols; ++c) {
    const uint32_t* cc = &count[static_cast<size_t>(c) * (symbols + 2) + 1];
    t.center[c] = static_cast<uint8_t>(std::max_element(cc, cc + symbols) - cc);
    t.up[c] = cc[t.center[c] + 1] > cc[t.center[c] - 1] ? 1 : -1;
  }
  std::vector<int> rank(n, 0);
  for (uint64_t i = 1; i < n; ++i) {
    const int c = values[i - 1];
    rank[i] = zigzag((values[i] - t.center[c]) * t.up[c]);
  }
  std::array<uint64_t, kMaxK + 1> total{};
  for (uint64_t i = 1; i < n; ++i)
    for (int k = 0; k <= kMaxK; ++k) total[k] += code_bits(rank[i], k);
  const int k = static_cast<int>(std::min_element(total.begin(), total.end()) - total.begin());
  const int w = width(symbols);
  std::vector<uint64_t> prefix(n + 1, 0);
  for (uint64_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + (i ? code_bits(rank[i], k) : 0);

  std::vector<uint64_t> first;  // each line's first value, greedily as many as fit
  for (uint64_t a = 0; a < n;) {
    first.push_back(a);
    uint64_t e = a + 1;
    while (e < n && line_bits(prefix, a, e + 1, parts, w) <= kLineBits) ++e;
    a = e;
  }
  const uint64_t lines = first.size();
  std::string out(lines_at(symbols, lines) + kLineBytes * lines, '\0');
  auto* block = reinterpret_cast<unsigned char*>(out.data());
  block[8] = static_cast<unsigned char>(k);
  block[9] = static_cast<unsigned char>(parts);
  put_le(block + 10, lines, 2);
  for (int c = 0; c < symbols; ++c) {
    block[kHead + c] = t.center[c];
    if (t.up[c] > 0) block[kHead + symbols + c / 8] |= static_cast<unsigned char>(1 << (c % 8));
  }
  for (uint64_t j = 0; j < lines; ++j) {
    put_le(block + index_at(symbols) + 2 * j, first[j], 2);
    const uint64_t a = first[j], e = j + 1 < lines ? first[j + 1] : n;
    const uint64_t size = (e - a + parts - 1) / parts;
    LineWriter line(block + lines_at(symbols, lines) + kLineBytes * j);
    line.put(0, kOffsetBits * (parts - 1));
    for (uint64_t p = a, part = 0; p < e || part < static_cast<uint64_t>(parts);
         p += size, ++part) {
      if (part > 0) line.put_at(kOffsetBits * (part - 1), line.pos(), kOffsetBits);
      if (p >= e) continue;
      line.put(values[p], w);
      for (uint64_t i = p + 1; i < std::min(e, p + size); ++i) line.rank(rank[i], k);
    }
    if (line.pos() > kLineBits) throw std::logic_error("a line coded past its 512 bits");
  }
  put_le(block, value_blocks::checksum(block, out.size(), number), 8);
  return out;
}

std::string View::check(const uint8_t* block, size_t size, uint64_t n, int symbols,
                        uint64_t number) {
  if (size < kLineBytes || size % kLineBytes || size < index_at(symbols))
    return "a size no line block has";
  if (get_le(block, 8) != value_blocks::checksum(block, size, number)) return "checksum mismatch";
  if (block[8] > kMaxK || !valid_parts(block[9])) return "a bad Rice parameter or part count";
  const uint64_t lines = get_le(block + 10, 2);
  if (lines == 0 || lines > n || lines_at(symbols, lines) + kLineBytes * lines != size)
    return "a line count its size does not hold";
  for (int c = 0; c < symbols; ++c)
    if (block[kHead + c] >= symbols) return "a center no value of its layer has";
  uint64_t previous = 0;
  for (uint64_t j = 0; j < lines; ++j) {
    const uint64_t f = get_le(block + index_at(symbols) + 2 * j, 2);
    if ((j == 0 && f != 0) || (j > 0 && f <= previous) || f >= n) return "a bad line index";
    previous = f;
    const uint8_t* line = block + lines_at(symbols, lines) + kLineBytes * j;
    const LineBits bits(line);
    int start = kOffsetBits * (block[9] - 1);
    for (int p = 1; p < block[9]; ++p) {
      const int at = static_cast<int>(bits.bits(kOffsetBits * (p - 1), kOffsetBits));
      if (at < start || at > kLineBits) return "a part offset out of its line";
      start = at;
    }
  }
  return {};
}

View::View(const uint8_t* block, size_t size, uint64_t n, int symbols)
    : n_(n), symbols_(static_cast<uint8_t>(symbols)), k_(block[8]), parts_(block[9]) {
  const uint64_t lines = get_le(block + 10, 2);
  if (size < index_at(symbols) || k_ > kMaxK || !valid_parts(parts_) || lines == 0 || lines > n ||
      lines_at(symbols, lines) + kLineBytes * lines != size)
    bad("tables its size cannot hold");
  lines_ = static_cast<uint16_t>(lines);
  scale_ = ((lines << 32) + n - 1) / n;
  tables_ = std::make_unique<uint8_t[]>(2 * symbols + 2 * lines);
  // Checked here, on the copy: the block's bytes may change after (a file rewritten in place).
  auto* contexts = reinterpret_cast<Context*>(tables_.get());
  for (int c = 0; c < symbols; ++c) {
    contexts[c] = {block[kHead + c],
                   static_cast<uint8_t>(block[kHead + symbols + c / 8] >> (c % 8) & 1)};
    if (contexts[c].center >= symbols) bad("a center no value of its layer has");
  }
  auto* index = reinterpret_cast<uint16_t*>(tables_.get() + 2 * symbols);
  for (uint64_t j = 0; j < lines; ++j) {
    index[j] = static_cast<uint16_t>(get_le(block + index_at(symbols) + 2 * j, 2));
    if ((j == 0 && index[j] != 0) || (j > 0 && index[j] <= index[j - 1])) bad("a bad line index");
  }
  if (index[lines - 1] >= n) bad("a bad line index");
  lines_at_ = block + lines_at(symbols, lines);
}

uint64_t View::line_of(uint64_t i, uint64_t* first, uint64_t* count) const {
  const uint16_t* index = this->index();
  uint64_t j = std::min<uint64_t>(guess(i), lines_ - 1);  // lines hold about as many values
  while (index[j] > i) --j;                               // index[0] = 0
  while (j + 1 < lines_ && index[j + 1] <= i) ++j;
  *first = index[j];
  *count = (j + 1 < lines_ ? index[j + 1] : n_) - *first;
  return j;
}

void View::decode_part(uint64_t line, uint64_t count, uint64_t part, uint64_t to,
                       uint8_t* out) const {
  const LineBits bits(lines_at_ + kLineBytes * line);
  int pos = part == 0 ? kOffsetBits * (parts_ - 1)
                      : static_cast<int>(bits.bits(kOffsetBits * (part - 1), kOffsetBits));
  const uint64_t size = (count + parts_ - 1) / parts_;
  const int w = width(symbols_);
  int v = static_cast<int>(bits.bits(pos, w));
  pos += w;
  if (__builtin_expect(pos > kLineBits || v >= symbols_, 0)) bad("a value its layer cannot have");
  out[0] = static_cast<uint8_t>(v);
  const Context* contexts = this->contexts();
  CodeReader codes(bits, pos, k_);
  for (uint64_t i = 1; i < to - part * size; ++i) {
    const int r = codes.rank();
    const int d = r & 1 ? (r + 1) >> 1 : -(r >> 1);
    const Context c = contexts[v];
    v = c.center + (c.up ? d : -d);
    if (__builtin_expect(static_cast<unsigned>(v) >= static_cast<unsigned>(symbols_), 0))
      bad("a value its layer cannot have");
    out[i] = static_cast<uint8_t>(v);
  }
  codes.check_end();
}

uint8_t View::at(uint64_t i) const {
  uint64_t first, count;
  const uint64_t line = line_of(i, &first, &count);
  const uint64_t size = (count + parts_ - 1) / parts_, part = (i - first) / size;
  uint8_t values[kLineBits];
  decode_part(line, count, part, i - first + 1, values);
  return values[i - first - part * size];
}

void View::decode(uint8_t* out) const {
  for (uint64_t j = 0; j < lines_; ++j) {
    const uint64_t first = index()[j], end = j + 1 < lines_ ? index()[j + 1] : n_;
    const uint64_t count = end - first, size = (count + parts_ - 1) / parts_;
    for (uint64_t p = 0; p * size < count; ++p)
      decode_part(j, count, p, std::min(count, (p + 1) * size), out + first + p * size);
  }
}

}  // namespace kalah::value_lines
