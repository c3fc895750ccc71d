// layer_codec.cpp: the three codecs (db/layer_codec.h).
#include "db/layer_codec.h"

#include <zstd.h>

#include <stdexcept>
#include <vector>

#include "base/compress.h"
#include "db/value_blocks.h"
#include "db/value_lines.h"

namespace kalah {
namespace {

// Format 1: a zstd frame a block, with its content checksum; read through base/compress.h.
std::string frames_encode(const uint8_t* values, uint64_t count, int, uint64_t, int level) {
  return compress_block(values, count, level);
}
uint64_t frames_max_size(uint64_t boards, int) {
  return ZSTD_compressBound(boards) + 64;
}
void frames_decode(const uint8_t* block, size_t size, uint64_t boards, int, uint8_t* out) {
  struct Context {
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    ~Context() { ZSTD_freeDCtx(dctx); }
  };
  thread_local Context c;
  const size_t r = ZSTD_decompressDCtx(c.dctx, out, boards, block, size);
  if (ZSTD_isError(r)) throw std::runtime_error(ZSTD_getErrorName(r));
  if (r != boards)
    throw std::runtime_error("it holds " + std::to_string(r) + " values, expected " +
                             std::to_string(boards));
}
// A frame is checked by decoding it: zstd checks its content checksum.
std::string frames_check(const uint8_t* block, size_t size, uint64_t boards, int symbols,
                         uint64_t) {
  thread_local std::vector<uint8_t> values;
  values.resize(boards);
  try {
    frames_decode(block, size, boards, symbols, values.data());
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

// Format 2: value blocks (db/value_blocks.h), probed where they lie without tables.
std::string blocks_encode(const uint8_t* values, uint64_t count, int symbols, uint64_t number,
                          int) {
  return value_blocks::encode(values, count, symbols, number);
}
uint64_t blocks_max_size(uint64_t boards, int symbols) {
  return value_blocks::max_size(boards, symbols);
}
void blocks_decode(const uint8_t* block, size_t size, uint64_t boards, int symbols, uint8_t* out) {
  value_blocks::View(block, size, boards, symbols).decode(out);
}
uint8_t blocks_at(const uint8_t* block, size_t size, uint64_t boards, int symbols, uint64_t i) {
  return value_blocks::View(block, size, boards, symbols).at(i);
}

// Format 3: value lines (db/value_lines.h), probed through views the reader keeps.
std::string lines_encode(const uint8_t* values, uint64_t count, int symbols, uint64_t number, int) {
  return value_lines::encode(values, count, symbols, number);
}
uint64_t lines_max_size(uint64_t boards, int symbols) {
  return value_lines::max_size(boards, symbols);
}
void lines_decode(const uint8_t* block, size_t size, uint64_t boards, int symbols, uint8_t* out) {
  thread_local std::vector<uint8_t> tables;
  tables.resize(value_lines::View::tables_size(size, boards, symbols));
  value_lines::View(block, size, boards, symbols, tables.data()).decode(out);
}

constexpr LayerCodec kCodecs[] = {
    {1, 0, "zstd frames", false, false, frames_encode, frames_max_size, frames_check, frames_decode,
     nullptr, nullptr, nullptr},
    {2, 1, "value blocks", true, false, blocks_encode, blocks_max_size, value_blocks::View::check,
     blocks_decode, blocks_at, value_blocks::View::prefetch, value_blocks::View::prefetch_stream},
    {3, 2, "value lines", true, true, lines_encode, lines_max_size, value_lines::View::check,
     lines_decode, nullptr, nullptr, nullptr},
};
static_assert(std::size(kCodecs) == kNewestFormat - kOldestFormat + 1);

}  // namespace

const LayerCodec* find_codec(uint32_t version) {
  for (const LayerCodec& c : kCodecs)
    if (c.version == version) return &c;
  return nullptr;
}

const LayerCodec& layer_codec(uint32_t version) {
  if (const LayerCodec* c = find_codec(version)) return *c;
  throw std::invalid_argument("layer format " + std::to_string(version) + ": this kalah knows " +
                              known_formats());
}

std::string known_formats() {
  return std::to_string(kOldestFormat) + ".." + std::to_string(kNewestFormat);
}

}  // namespace kalah
