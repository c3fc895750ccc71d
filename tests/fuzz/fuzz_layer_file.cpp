// fuzz_layer_file.cpp: libFuzzer target for the layer-file reader (db/layer_file.h) fed arbitrary
// bytes. The harness first rewrites the checksums to match the bytes (the header's three, and each
// block's of formats 2 and 3, which db/value_blocks.h and db/value_lines.h share), so that the
// fuzzer reaches the header's fields, the index and the blocks' tables and codes rather than
// stopping at a checksum, and expects the rules and layer the header claims. Every input must be
// read or refused with a FileError; a crash, a hang or another exception is a bug.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "base/checksum.h"
#include "db/layer_file.h"
#include "db/value_blocks.h"

using namespace kalah;

namespace {

uint64_t get(const std::string& b, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[at + i]);
  return v;
}
void put(std::string& b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<char>(v >> (8 * i));
}

// Checksums as the writer computes them (offsets of the layout in db/layer_file.h): each block's
// of formats 2 and 3 where the index says where blocks are, then the body's, the index's and the
// header's.
void fix_checksums(std::string& b) {
  if (b.size() < kHeaderSize) return;
  const uint64_t version = get(b, 8, 4), blocks = get(b, 32, 8), index_at = get(b, 40, 8);
  if ((version == 2 || version == 3) && blocks < 4096 && index_at <= b.size() &&
      (b.size() - index_at) / 8 >= blocks + 1)
    for (uint64_t i = 0; i < blocks; ++i) {
      const uint64_t from = get(b, index_at + 8 * i, 8), to = get(b, index_at + 8 * i + 8, 8);
      if (from < kHeaderSize || to > index_at || to <= from || to - from < 8) continue;
      auto* block = reinterpret_cast<uint8_t*>(b.data() + from);
      put(b, from, value_blocks::checksum(block, to - from, i));
    }
  put(b, 64, Checksum::of(b.data() + kHeaderSize, b.size() - kHeaderSize));
  if (index_at >= kHeaderSize && index_at <= b.size())
    put(b, 72, Checksum::of(b.data() + index_at, b.size() - index_at));
  put(b, 80, 0);
  put(b, 80, Checksum::of(b.data(), kHeaderSize));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  fix_checksums(bytes);
  static const std::string path = "/tmp/kalah-fuzz-layer-" + std::to_string(::getpid()) + ".kdb";
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  Rules rules{4, Capture::kStandard, End::kImmediate, Remainder::kOwner};
  int seeds = 1;
  if (size >= kHeaderSize) {  // what the header claims, where it is a possible claim
    if (data[12] >= 1 && data[12] <= kMaxPits) rules.pits = data[12];
    rules.capture = data[13] == 1 ? Capture::kEmpty : Capture::kStandard;
    rules.end = data[14] == 1 ? End::kOnTurn : End::kImmediate;
    rules.remainder = data[15] == 1 ? Remainder::kDiscard : Remainder::kOwner;
    const int s = data[16] | data[17] << 8;
    if (s >= 1 && s <= 254) seeds = s;
  }
  try {
    const LayerFile file(path, rules, seeds);
    file.check_body();
    std::vector<uint8_t> values;
    for (uint64_t b = 0; b < file.header().blocks && b < 16; ++b) {
      values.resize(file.block_boards(b));
      file.read_block(b, values.data());
    }
  } catch (const FileError&) {
  }
  return 0;
}
