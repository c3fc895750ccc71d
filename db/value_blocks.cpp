// value_blocks.cpp: coding and reading value blocks (layout in value_blocks.h).
#include "db/value_blocks.h"

#include <endian.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "base/checksum.h"
#include "base/le_bytes.h"

namespace kalah::value_blocks {
namespace {

constexpr int kMaxK = 3;
constexpr int kEscapeZeros = 15;
constexpr int kLiteralBits = 8;
constexpr int kMaxCodeBits = kEscapeZeros + kLiteralBits;
// Zero bytes after the stream: a mini-block's codes, read from any start inside the stream, never
// leave the block, so the decoder checks no bound per value.
constexpr size_t kPadding = kMini * kMaxCodeBits / 8 + 8;
constexpr size_t kSpanBytes = 4 + 2 * (kSpan / kMini);

uint64_t spans(uint64_t n) {
  return (n + kSpan - 1) / kSpan;
}
size_t spans_at() {
  return 14;
}
size_t lists_at(uint64_t n, int symbols) {
  return spans_at() + kSpanBytes * spans(n) + 2 * static_cast<size_t>(symbols + 2);
}

int code_bits(int rank, int k) {
  const int q = rank >> k;
  return q < kEscapeZeros ? q + 1 + k : kEscapeZeros + kLiteralBits;
}

class BitWriter {
 public:
  // count <= 32 bits at a time.
  void put(uint64_t bits, int count) {
    bits &= (uint64_t{1} << count) - 1;
    pending_ |= bits << filled_;
    filled_ += count;
    length_ += static_cast<uint64_t>(count);
    while (filled_ >= 8) {
      bytes_.push_back(static_cast<uint8_t>(pending_));
      pending_ >>= 8;
      filled_ -= 8;
    }
  }
  void rank(int r, int k) {
    const int q = r >> k;
    if (q < kEscapeZeros)
      put((uint64_t{1} | static_cast<uint64_t>(r) << 1) << q, q + 1 + k);
    else
      put(static_cast<uint64_t>(r) << kEscapeZeros, kEscapeZeros + kLiteralBits);
  }
  uint64_t length() const { return length_; }
  // The bytes written, the last one completed with zero bits.
  std::vector<uint8_t> finish() {
    if (filled_ > 0) bytes_.push_back(static_cast<uint8_t>(pending_));
    pending_ = 0;
    filled_ = 0;
    return std::move(bytes_);
  }

 private:
  std::vector<uint8_t> bytes_;
  uint64_t pending_ = 0;
  int filled_ = 0;
  uint64_t length_ = 0;
};

uint64_t window(const uint8_t* stream, uint64_t pos) {
  uint64_t w;
  std::memcpy(&w, stream + (pos >> 3), 8);  // the padding keeps this inside the block
  return le64toh(w) >> (pos & 7);
}

// A code stream read a window at a time: each window holds at least 56 bits, two codes or more.
class CodeReader {
 public:
  CodeReader(const uint8_t* stream, uint64_t pos, int k)
      : stream_(stream),
        pos_(pos),
        window_(window(stream, pos)),
        mask_((uint64_t{1} << k) - 1),
        k_(k) {}
  uint64_t rank() {
    if (used_ > 56 - kMaxCodeBits) {
      pos_ += used_;
      window_ = window(stream_, pos_);
      used_ = 0;
    }
    const int zeros = __builtin_ctzll(window_ | uint64_t{1} << kEscapeZeros);
    uint64_t r;
    int length;
    if (zeros < kEscapeZeros) {
      r = (static_cast<uint64_t>(zeros) << k_) | (window_ >> (zeros + 1) & mask_);
      length = zeros + 1 + k_;
    } else {
      r = window_ >> kEscapeZeros & 0xFF;
      length = kMaxCodeBits;
    }
    window_ >>= length;
    used_ += length;
    return r;
  }

 private:
  const uint8_t* stream_;
  uint64_t pos_;
  uint64_t window_;
  uint64_t mask_;
  int k_;
  int used_ = 0;
};

[[noreturn]] void bad_rank() {
  throw std::runtime_error("a rank its context does not have");
}

}  // namespace

size_t max_size(uint64_t n, int symbols) {
  const size_t lists = static_cast<size_t>(symbols + 1) * symbols;
  const uint64_t stream = (n * kMaxCodeBits + 7) / 8;
  return lists_at(n, symbols) + lists + stream + kPadding;
}

uint64_t checksum(const uint8_t* block, size_t size, uint64_t number) {
  unsigned char prefix[8];
  put_le(prefix, number, 8);
  Checksum c;
  c.update(prefix, 8);
  c.update(block + 8, size - 8);
  return c.digest();
}

std::string encode(const uint8_t* values, uint64_t n, int symbols, uint64_t number) {
  if (n > 0 && *std::max_element(values, values + n) >= symbols)
    throw std::invalid_argument("a value block's codes must be below " + std::to_string(symbols));
  const int contexts = symbols + 1, start = symbols;
  // Counts by context, then each context's values most frequent first (ties: smaller first).
  std::vector<uint32_t> count(static_cast<size_t>(contexts) * symbols, 0);
  for (uint64_t i = 0; i < n; ++i)
    ++count[(i % kMini == 0 ? start : values[i - 1]) * symbols + values[i]];
  std::vector<std::vector<uint8_t>> list(contexts);
  std::vector<uint8_t> rank(static_cast<size_t>(contexts) * symbols, 0);
  for (int c = 0; c < contexts; ++c) {
    const uint32_t* cc = &count[static_cast<size_t>(c) * symbols];
    for (int v = 0; v < symbols; ++v)
      if (cc[v]) list[c].push_back(static_cast<uint8_t>(v));
    std::stable_sort(list[c].begin(), list[c].end(),
                     [&](uint8_t a, uint8_t b) { return cc[a] > cc[b]; });
    for (size_t r = 0; r < list[c].size(); ++r)
      rank[static_cast<size_t>(c) * symbols + list[c][r]] = static_cast<uint8_t>(r);
  }
  auto rank_of = [&](uint64_t i) {
    return rank[(i % kMini == 0 ? start : values[i - 1]) * symbols + values[i]];
  };
  // The Rice parameter that codes the block shortest.
  std::array<uint64_t, kMaxK + 1> bits{};
  for (uint64_t i = 0; i < n; ++i)
    for (int k = 0; k <= kMaxK; ++k) bits[k] += code_bits(rank_of(i), k);
  const int k = static_cast<int>(std::min_element(bits.begin(), bits.end()) - bits.begin());

  BitWriter stream;
  std::string out(lists_at(n, symbols), '\0');
  auto* head = reinterpret_cast<unsigned char*>(out.data());
  head[8] = static_cast<unsigned char>(k);
  for (uint64_t i = 0; i < n; ++i) {
    unsigned char* span = head + spans_at() + kSpanBytes * (i / kSpan);
    if (i % kSpan == 0) put_le(span, stream.length(), 4);
    if (i % kMini == 0)
      put_le(span + 4 + 2 * (i % kSpan / kMini), stream.length() - get_le(span, 4), 2);
    stream.rank(rank_of(i), k);
  }
  unsigned char* offsets = head + lists_at(n, symbols) - 2 * (contexts + 1);
  size_t at = 0;
  for (int c = 0; c <= contexts; ++c) {
    put_le(offsets + 2 * c, at, 2);
    if (c < contexts) at += list[c].size();
  }
  for (const auto& l : list) out.append(l.begin(), l.end());
  put_le(reinterpret_cast<unsigned char*>(out.data()) + 10, out.size(), 4);
  const std::vector<uint8_t> bytes = stream.finish();
  out.append(bytes.begin(), bytes.end());
  out.append(kPadding, '\0');
  auto* block = reinterpret_cast<unsigned char*>(out.data());
  put_le(block, checksum(block, out.size(), number), 8);
  return out;
}

std::string View::check(const uint8_t* block, size_t size, uint64_t n, int symbols,
                        uint64_t number) {
  const size_t lists = lists_at(n, symbols);
  if (size < lists + kPadding) return "shorter than its own tables";
  if (get_le(block, 8) != checksum(block, size, number)) return "checksum mismatch";
  if (block[8] > kMaxK || block[9] != 0) return "a bad Rice parameter";
  const int contexts = symbols + 1;
  const uint8_t* offsets = block + lists - 2 * (contexts + 1);
  uint64_t previous = 0;
  for (int c = 0; c <= contexts; ++c) {
    const uint64_t o = get_le(offsets + 2 * c, 2);
    if (o < previous || o - previous > static_cast<uint64_t>(symbols) || (c == 0 && o != 0))
      return "a bad table of values";
    previous = o;
  }
  const uint64_t stream = get_le(block + 10, 4);
  if (stream != lists + previous || size < stream + kPadding) return "a bad stream offset";
  for (size_t i = lists; i < stream; ++i)
    if (block[i] >= symbols)
      return "it holds the code " + std::to_string(block[i]) + ", which no value of its layer has";
  const uint64_t stream_bits = (size - stream - kPadding) * 8;
  for (uint64_t i = 0; i < n; i += kMini) {
    const uint8_t* span = block + spans_at() + kSpanBytes * (i / kSpan);
    if (get_le(span, 4) + get_le(span + 4 + 2 * (i % kSpan / kMini), 2) >= stream_bits)
      return "a mini-block offset past its stream";
  }
  return {};
}

View::View(const uint8_t* block, size_t size, uint64_t n, int symbols)
    : block_(block), n_(n), symbols_(symbols), k_(block[8]) {
  const size_t lists = lists_at(n, symbols);
  const uint64_t stream = get_le(block + 10, 4);
  if (size < lists + kPadding || k_ > kMaxK || stream < lists || stream > size - kPadding)
    throw std::runtime_error("tables its size cannot hold");
  offsets_ = block + lists - 2 * (symbols + 2);
  lists_ = block + lists;
  stream_ = block + stream;
  list_bytes_ = stream - lists;
  stream_bits_ = (size - stream - kPadding) * 8;
}

uint64_t View::mini_block_start(uint64_t first) const {
  const uint8_t* span = block_ + spans_at() + kSpanBytes * (first / kSpan);
  const uint64_t start = get_le(span, 4) + get_le(span + 4 + 2 * (first % kSpan / kMini), 2);
  // A start in the stream reads no more than its padding beyond it (kPadding).
  if (__builtin_expect(start >= stream_bits_, 0))
    throw std::runtime_error("a mini-block offset past its stream");
  return start;
}

uint8_t View::at(uint64_t i) const {
  CodeReader codes(stream_, mini_block_start(i), k_);
  int context = symbols_;
  for (uint64_t j = i % kMini;; --j) {
    const uint64_t r = codes.rank();
    uint32_t range;  // this context's list offset and the next one's, in one load
    std::memcpy(&range, offsets_ + 2 * context, 4);
    range = le32toh(range);
    const uint32_t begin = range & 0xFFFF, end = range >> 16;
    if (__builtin_expect(r >= end - begin || end > list_bytes_ || end < begin, 0)) bad_rank();
    context = lists_[begin + r];
    if (__builtin_expect(context >= symbols_, 0)) bad_rank();  // no value of the layer
    if (j == 0) return static_cast<uint8_t>(context);
  }
}

void View::decode(uint8_t* out) const {
  // The lists laid out 256 apart (a rank is at most 255), 255 where a context has no such rank:
  // one load a value instead of two.
  constexpr uint8_t kNone = 255;  // no code: symbols <= 255
  std::vector<uint8_t> table(static_cast<size_t>(symbols_ + 1) << 8, kNone);
  for (int c = 0; c <= symbols_; ++c) {
    const uint64_t begin = get_le(offsets_ + 2 * c, 2), end = get_le(offsets_ + 2 * c + 2, 2);
    if (end < begin || end - begin > 256 || end > list_bytes_) bad_rank();
    std::memcpy(&table[static_cast<size_t>(c) << 8], lists_ + begin, end - begin);
  }
  for (uint64_t first = 0; first < n_; first += kMini) {
    CodeReader codes(stream_, mini_block_start(first), k_);
    size_t context = static_cast<size_t>(symbols_);
    for (uint64_t i = first, last = std::min(first + kMini, n_); i < last; ++i) {
      const uint8_t v = table[context << 8 | codes.rank()];
      if (__builtin_expect(v >= symbols_, 0)) bad_rank();  // kNone, or no value of the layer
      out[i] = v;
      context = v;
    }
  }
}

void View::prefetch(const uint8_t* block, uint64_t n, int symbols, uint64_t i) {
  __builtin_prefetch(block + 8);
  __builtin_prefetch(block + spans_at() + kSpanBytes * (i / kSpan));
  __builtin_prefetch(block + lists_at(n, symbols) - 2 * (symbols + 2));
}

void View::prefetch_stream(const uint8_t* block, uint64_t i) {
  const uint8_t* span = block + spans_at() + kSpanBytes * (i / kSpan);
  const uint64_t pos = get_le(span, 4) + get_le(span + 4 + 2 * (i % kSpan / kMini), 2);
  __builtin_prefetch(block + get_le(block + 10, 4) + (pos >> 3));
}

}  // namespace kalah::value_blocks
