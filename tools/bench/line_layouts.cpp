// line_layouts.cpp: bits a board of block layouts that a probe reads in one 64-byte line
// (docs/experiments.md "Line layouts"; issue 59).
//
// usage: kalah-line-layouts DIR M CAPTURE FIRST LAST [EVERY]
//
// For each layer FIRST..LAST of DIR (any format), every EVERY-th block of 65,536 boards (default
// 1), the bits a board, all overhead counted, of:
//   format-2   the block as format 2 codes it (db/value_blocks.h);
//   rice       the bare Rice code stream of ranks by previous value, no offsets (a floor for the
//              layouts below), with per-block lists ("lists") or the zigzag of the change from the
//              previous value ("zigzag");
//   rank-P     fixed boards per line, the most every line of the block holds: the line is the
//              rank over B, nothing else is read. Each line is split into P parts, the first
//              value of each coded raw, the bit offsets of parts 2..P at its head (9 bits each);
//   index      as many boards as a line holds, a line's first board in an index beside it (2
//              bytes a line, counted here) that a probe reads first.
// Each block has a 64-byte head (checksum, Rice parameter, boards a line); "lists" adds its lists.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "db/file_names.h"
#include "db/layer_file.h"
#include "db/value_blocks.h"
#include "game/rules.h"

namespace kalah {
namespace {

constexpr int kLineBits = 512;
constexpr int kOffsetBits = 9;

int rice_bits(int rank, int k) {
  const int q = rank >> k;
  return q < 15 ? q + 1 + k : 23;
}

struct Block {
  std::vector<uint8_t> length;  // code length of each value given the previous one
  int raw = 0;                  // bits of a raw value
  size_t head = 64;             // bytes before the lines
};

// Code lengths for one ranking: zigzag of the change, or per-block frequency lists.
Block code(const uint8_t* v, uint64_t n, int symbols, bool lists) {
  std::vector<uint8_t> rank(n, 0);
  size_t list_bytes = 0;
  if (lists) {
    std::vector<uint32_t> count(size_t(symbols) * symbols, 0);
    for (uint64_t i = 1; i < n; ++i) ++count[v[i - 1] * symbols + v[i]];
    std::vector<uint8_t> r(count.size());
    for (int c = 0; c < symbols; ++c) {
      std::vector<uint8_t> l;
      for (int x = 0; x < symbols; ++x)
        if (count[c * symbols + x]) l.push_back(uint8_t(x));
      std::stable_sort(l.begin(), l.end(), [&](uint8_t a, uint8_t b) {
        return count[c * symbols + a] > count[c * symbols + b];
      });
      list_bytes += l.size() + 2;
      for (size_t j = 0; j < l.size(); ++j) r[c * symbols + l[j]] = uint8_t(j);
    }
    for (uint64_t i = 1; i < n; ++i) rank[i] = r[v[i - 1] * symbols + v[i]];
  } else {
    // Zigzag around each context's most frequent value, up first where up is more frequent.
    std::vector<uint32_t> count(size_t(symbols) * (symbols + 2), 0);
    for (uint64_t i = 1; i < n; ++i) ++count[v[i - 1] * (symbols + 2) + v[i] + 1];
    std::vector<int> center(symbols, 0), up(symbols, 0);
    for (int c = 0; c < symbols; ++c) {
      const uint32_t* cc = &count[c * (symbols + 2) + 1];
      center[c] = int(std::max_element(cc, cc + symbols) - cc);
      up[c] = cc[center[c] + 1] > cc[center[c] - 1];
    }
    for (uint64_t i = 1; i < n; ++i) {
      const int c = v[i - 1], d = (int(v[i]) - center[c]) * (up[c] ? 1 : -1);
      rank[i] = uint8_t(d > 0 ? 2 * d - 1 : -2 * d);
    }
    list_bytes = symbols;
  }
  uint64_t best = UINT64_MAX;
  int k = 0;
  for (int kk = 0; kk <= 3; ++kk) {
    uint64_t bits = 0;
    for (uint64_t i = 1; i < n; ++i) bits += rice_bits(rank[i], kk);
    if (bits < best) best = bits, k = kk;
  }
  Block b;
  b.length.resize(n);
  for (uint64_t i = 0; i < n; ++i) b.length[i] = uint8_t(rice_bits(rank[i], k));
  while ((1 << b.raw) < symbols) ++b.raw;
  b.head = 64 + (lists ? (list_bytes + 63) / 64 * 64 : 0);
  return b;
}

// Bits of values [a, e) in P parts, each part's first value raw; 0 if e == a.
uint64_t line_bits(const Block& b, const std::vector<uint64_t>& prefix, uint64_t a, uint64_t e,
                   int parts) {
  uint64_t bits = uint64_t(parts - 1) * kOffsetBits;
  const uint64_t size = (e - a + parts - 1) / parts;
  for (uint64_t p = a; p < e; p += size) {
    const uint64_t q = std::min(e, p + size);
    bits += b.raw + prefix[q] - prefix[p + 1];
  }
  return bits;
}

// Bytes of the block in lines of B boards, B the most every line holds.
uint64_t by_rank(const Block& b, const std::vector<uint64_t>& prefix, uint64_t n, int parts) {
  for (uint64_t boards = 512;; --boards) {
    bool fits = true;
    for (uint64_t a = 0; a < n && fits; a += boards)
      fits = line_bits(b, prefix, a, std::min(n, a + boards), parts) <= kLineBits;
    if (fits) return b.head + 64 * ((n + boards - 1) / boards);
  }
}

// Bytes of the block in lines filled greedily, in P parts, with 2 bytes a line of index.
uint64_t by_index(const Block& b, const std::vector<uint64_t>& prefix, uint64_t n, int parts) {
  uint64_t lines = 0;
  for (uint64_t a = 0; a < n; ++lines) {
    uint64_t e = a + 1;
    while (e < n && line_bits(b, prefix, a, e + 1, parts) <= kLineBits) ++e;
    a = e;
  }
  return b.head + 66 * lines;
}

int run(const std::string& dir, const Rules& rules, int first, int last, int every) {
  std::printf(
      "layer  format-2  rice-lists  rice-zigzag  ranking  rank-1  rank-2  rank-4  index-1  index-2 "
      " index-4\n");
  for (int s = first; s <= last; ++s) {
    const LayerFile f(layer_path(dir, rules, s), rules, s);
    std::vector<uint8_t> values(f.header().boards);
    f.read_all(values.data());
    const int symbols = encode_value(rules, s, s) + 1;
    uint64_t boards = 0, f2 = 0, rice[2] = {0, 0}, rank[2][3] = {}, index[2][3] = {};
    for (uint64_t at = 0; at < values.size(); at += uint64_t(every) * kBoardsPerBlock) {
      const uint64_t n = std::min<uint64_t>(kBoardsPerBlock, values.size() - at);
      const uint8_t* v = &values[at];
      boards += n;
      f2 += value_blocks::encode(v, n, symbols, 0).size();
      for (int lists = 0; lists < 2; ++lists) {
        const Block b = code(v, n, symbols, lists);
        std::vector<uint64_t> prefix(n + 1, 0);
        for (uint64_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + b.length[i];
        rice[lists] += prefix[n] - b.length[0] + b.raw;
        for (int p = 0; p < 3; ++p) {
          rank[lists][p] += by_rank(b, prefix, n, 1 << p);
          index[lists][p] += by_index(b, prefix, n, 1 << p);
        }
      }
    }
    const double per = 8.0 / double(boards);
    std::printf("%5d  %8.3f  %10.3f  %11.3f\n", s, f2 * per, rice[1] / 8.0 * per,
                rice[0] / 8.0 * per);
    for (int lists = 1; lists >= 0; --lists)
      std::printf("%44s  %6.3f  %6.3f  %6.3f  %7.3f  %7.3f  %7.3f\n", lists ? "lists" : "zigzag",
                  rank[lists][0] * per, rank[lists][1] * per, rank[lists][2] * per,
                  index[lists][0] * per, index[lists][1] * per, index[lists][2] * per);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace
}  // namespace kalah

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::fprintf(stderr, "usage: kalah-line-layouts DIR M standard|empty FIRST LAST [EVERY]\n");
    return 2;
  }
  kalah::Rules rules;
  rules.pits = std::atoi(argv[2]);
  rules.capture =
      std::string(argv[3]) == "empty" ? kalah::Capture::kEmpty : kalah::Capture::kStandard;
  return kalah::run(argv[1], rules, std::atoi(argv[4]), std::atoi(argv[5]),
                    argc == 7 ? std::max(1, std::atoi(argv[6])) : 1);
}
