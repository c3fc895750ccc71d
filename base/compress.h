// compress.h: one zstd frame with its content checksum, for every file that keeps compressed
// bytes (format 1's layer blocks, certificates, checkpoints).
#pragma once

#include <cstdint>
#include <string>

namespace kalah {

// `count` bytes compressed at zstd `level` into one frame with its content checksum: the same
// bytes on every machine for the same zstd version. Throws FileError (base/file_error.h) if zstd
// fails.
std::string compress_block(const uint8_t* bytes, uint64_t count, int level);

}  // namespace kalah
