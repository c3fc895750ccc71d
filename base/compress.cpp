// compress.cpp: zstd frames, one compression context a thread.
#include "base/compress.h"

#include <zstd.h>

#include <vector>

#include "base/file_error.h"

namespace kalah {

std::string compress_block(const uint8_t* bytes, uint64_t count, int level) {
  struct Compressor {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    std::vector<char> buffer;
    ~Compressor() { ZSTD_freeCCtx(cctx); }
  };
  thread_local Compressor c;
  ZSTD_CCtx_setParameter(c.cctx, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(c.cctx, ZSTD_c_checksumFlag, 1);
  c.buffer.resize(ZSTD_compressBound(count));
  const size_t size = ZSTD_compress2(c.cctx, c.buffer.data(), c.buffer.size(), bytes, count);
  if (ZSTD_isError(size))
    throw FileError(std::string("compressing a block: ") + ZSTD_getErrorName(size));
  return std::string(c.buffer.data(), size);
}

}  // namespace kalah
