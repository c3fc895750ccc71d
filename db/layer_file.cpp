// layer_file.cpp: writing and reading layer files (layout in layer_file.h).
#include "db/layer_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <type_traits>

#include "base/atomic_file.h"
#include "base/checksum.h"
#include "base/le_bytes.h"
#include "db/file_names.h"
#include "db/rank.h"
#include "kalah/version.h"

namespace kalah {
namespace {

constexpr char kMagic[8] = {'K', 'A', 'L', 'A', 'H', 'D', 'B', 0x1A};

// The header's fields at their offsets (layout in layer_file.h): the one table that both writing
// and reading use. f(offset, bytes, field) is called for each; the magic and the header's own
// checksum (kHeaderChecksumAt) are handled apart.
constexpr size_t kHeaderChecksumAt = 80;
template <class Header, class F>
void for_each_field(Header& h, F&& f) {
  f(8, 4, h.version);
  f(12, 1, h.rules.pits);
  f(13, 1, h.rules.capture);
  f(14, 1, h.rules.end);
  f(15, 1, h.rules.remainder);
  f(16, 2, h.seeds);
  f(18, 1, h.encoding);
  f(19, 1, h.coding);
  f(20, 4, h.boards_per_block);
  f(24, 8, h.boards);
  f(32, 8, h.blocks);
  f(40, 8, h.index_offset);
  f(48, 8, h.file_size);
  f(56, 4, h.flags);
  f(60, 4, h.writer);
  f(64, 8, h.body_checksum);
  f(72, 8, h.index_checksum);
}

void serialize(const LayerHeader& h, unsigned char* out) {
  std::memset(out, 0, kHeaderSize);
  std::memcpy(out, kMagic, 8);
  for_each_field(h, [&](size_t at, int bytes, const auto& field) {
    put_le(out + at, static_cast<uint64_t>(field), bytes);
  });
  put_le(out + kHeaderChecksumAt, Checksum::of(out, kHeaderSize), 8);  // still 0 while hashed
}

// The fields of a raw header; the magic and the header checksum are the caller's to check.
LayerHeader parse(const unsigned char* raw) {
  LayerHeader h;
  for_each_field(h, [&](size_t at, int bytes, auto& field) {
    field = static_cast<std::remove_reference_t<decltype(field)>>(get_le(raw + at, bytes));
  });
  return h;
}

// Writes the blocks, then the index, at the file's current end (just past the header); fills the
// header's layout and checksum fields. Frames come kWriteChunk blocks at a time, so only that
// many are ever held.
void write_body(AtomicFile& file, const FrameSource& source, LayerHeader& h) {
  std::vector<std::string> frames(kWriteChunk);
  std::vector<unsigned char> index((h.blocks + 1) * 8);
  Checksum body;
  uint64_t offset = kHeaderSize;
  for (uint64_t chunk = 0; chunk < h.blocks; chunk += kWriteChunk) {
    const uint64_t count = std::min(kWriteChunk, h.blocks - chunk);
    source(chunk, count, frames);
    for (uint64_t i = 0; i < count; ++i) {
      put_le(&index[(chunk + i) * 8], offset, 8);
      file.write(frames[i].data(), frames[i].size());
      body.update(frames[i].data(), frames[i].size());
      offset += frames[i].size();
    }
  }
  put_le(&index[h.blocks * 8], offset, 8);
  file.write(index.data(), index.size());
  body.update(index.data(), index.size());
  h.index_offset = offset;
  h.file_size = offset + index.size();
  h.index_checksum = Checksum::of(index.data(), index.size());
  h.body_checksum = body.digest();
}

}  // namespace

std::string writer_version(const LayerHeader& h) {
  if (h.writer == 0) return "before 0.1.0";
  return std::to_string(h.writer >> 16) + "." + std::to_string(h.writer >> 8 & 0xFF) + "." +
         std::to_string(h.writer & 0xFF);
}

std::string layer_block(const Rules& rules, int s, uint64_t block, const uint8_t* values,
                        uint64_t count, const LayerFormat& format) {
  const int symbols = encode_value(rules, s, s) + 1;
  return layer_codec(format.version).encode(values, count, symbols, block, format.zstd_level);
}

uint64_t write_layer_file(const std::string& dir, const Rules& rules, int s, const uint8_t* values,
                          uint64_t boards, const LayerFormat& format) {
  return write_layer_file(
      dir, rules, s, boards,
      [&](uint64_t first, uint64_t count, std::vector<std::string>& out) {
        tbb::parallel_for(uint64_t{0}, count, [&](uint64_t i) {
          const uint64_t at = (first + i) * kBoardsPerBlock;
          out[i] = layer_block(rules, s, first + i, values + at,
                               std::min<uint64_t>(kBoardsPerBlock, boards - at), format);
        });
      },
      format.version);
}

uint64_t write_layer_file(const std::string& dir, const Rules& rules, int s, uint64_t boards,
                          const FrameSource& frames, uint32_t version) {
  const LayerCodec& codec = layer_codec(version);
  LayerHeader h;
  h.version = version;
  h.rules = rules;
  h.seeds = s;
  h.encoding = value_encoding(rules);
  h.coding = codec.coding;
  h.writer = KALAH_VERSION_MAJOR << 16 | KALAH_VERSION_MINOR << 8 | KALAH_VERSION_PATCH;
  h.boards = boards;
  h.blocks = (boards + h.boards_per_block - 1) / h.boards_per_block;

  AtomicFile file(dir, layer_file_name(rules, s));
  unsigned char header[kHeaderSize] = {};
  file.write(header, kHeaderSize);  // the real header goes in last
  write_body(file, frames, h);
  h.flags = 1;
  serialize(h, header);
  file.write_at(header, kHeaderSize, 0);
  file.commit();
  return h.file_size;
}

LayerFile::LayerFile(const std::string& path, const Rules& expect_rules, int expect_seeds)
    : path_(path) {
  using Problem = DatabaseError::Problem;
  // O_NONBLOCK: a FIFO at a layer's name is refused at once, never waited on (no effect on the
  // regular files read below).
  fd_.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_.fd < 0) fail(std::string("cannot open: ") + std::strerror(errno), Problem::kUnreadable);
  struct stat st;
  if (::fstat(fd_.fd, &st) != 0)
    fail(std::string("cannot stat: ") + std::strerror(errno), Problem::kUnreadable);
  if (!S_ISREG(st.st_mode)) fail("not a regular file", Problem::kForeign);
  const auto actual_size = static_cast<uint64_t>(st.st_size);
  opened_ = FileStamp::of(st);
  unsigned char raw[kHeaderSize] = {};
  pread_exact(raw, std::min<uint64_t>(actual_size, kHeaderSize), 0);
  const bool magic = std::memcmp(raw, kMagic, std::min<uint64_t>(actual_size, 8)) == 0;
  if (actual_size < kHeaderSize)
    fail("truncated: " + std::to_string(actual_size) + " bytes",
         magic ? Problem::kDamaged : Problem::kForeign);
  if (!magic) fail("not a kalah database file (bad magic)", Problem::kForeign);
  std::memcpy(raw_header_, raw, kHeaderSize);
  const uint64_t stored_header_checksum = get_le(raw + kHeaderChecksumAt, 8);
  std::memset(raw + kHeaderChecksumAt, 0, 8);
  header_ = parse(raw);
  codec_ = find_codec(header_.version);
  if (!codec_)
    fail("format version " + std::to_string(header_.version) + ", this kalah reads versions " +
             known_formats(),
         Problem::kForeign);
  views_probe_ = codec_->views;
  if (Checksum::of(raw, kHeaderSize) != stored_header_checksum) fail("header checksum mismatch");
  check_header(expect_rules, expect_seeds, actual_size);
  read_index();
  if (codec_->in_place) map_file();
}

void LayerFile::check_header(const Rules& expect_rules, int expect_seeds,
                             uint64_t actual_size) const {
  // The checksum holds, so a contradiction below is not damage in transit: the file is not what
  // its name says, and a builder must leave it alone.
  using Problem = DatabaseError::Problem;
  const LayerHeader& h = header_;
  auto field = [&](const char* name, uint64_t got, const std::string& expected) {
    fail("header field '" + std::string(name) + "' is " + std::to_string(got) + ", expected " +
             expected,
         Problem::kForeign);
  };
  if (!(h.rules == expect_rules))
    fail("rules m=" + std::to_string(h.rules.pits) + " " + describe(h.rules) + " (codes " +
             std::to_string(static_cast<int>(h.rules.capture)) + "," +
             std::to_string(static_cast<int>(h.rules.end)) + "," +
             std::to_string(static_cast<int>(h.rules.remainder)) +
             "), expected m=" + std::to_string(expect_rules.pits) + " " + describe(expect_rules),
         Problem::kForeign);
  if (h.seeds != expect_seeds) field("layer", h.seeds, std::to_string(expect_seeds));
  if (h.encoding != value_encoding(h.rules))
    field("value encoding", h.encoding, std::to_string(value_encoding(h.rules)));
  if (h.coding != codec_->coding) field("block coding", h.coding, std::to_string(codec_->coding));
  if (h.boards_per_block != kBoardsPerBlock)
    field("boards per block", h.boards_per_block, std::to_string(kBoardsPerBlock));
  const int m = h.rules.pits;
  const uint64_t layer_size = Ranker::binomial(h.seeds + 2 * m - 1, 2 * m - 1);
  if (h.boards != layer_size) field("boards", h.boards, std::to_string(layer_size));
  const uint64_t blocks = (h.boards + h.boards_per_block - 1) / h.boards_per_block;
  if (h.blocks != blocks) field("block count", h.blocks, std::to_string(blocks));
  if (!(h.flags & 1)) fail("incomplete (the build of this layer did not finish)");
  if (h.flags != 1) field("flags", h.flags, "1");
  if (h.file_size != actual_size)
    fail("truncated or extended: " + std::to_string(actual_size) + " bytes, header says " +
         std::to_string(h.file_size));
  if (h.index_offset < kHeaderSize || h.index_offset > h.file_size ||
      h.file_size - h.index_offset != (h.blocks + 1) * 8)
    field("index offset", h.index_offset, "the blocks' end, with the index filling the rest");
}

void LayerFile::read_index() {
  const LayerHeader& h = header_;
  std::vector<unsigned char> raw_index((h.blocks + 1) * 8);
  pread_exact(raw_index.data(), raw_index.size(), h.index_offset);
  if (Checksum::of(raw_index.data(), raw_index.size()) != h.index_checksum)
    fail("block index checksum mismatch");
  index_.resize(h.blocks + 1);
  for (uint64_t b = 0; b <= h.blocks; ++b) index_[b] = get_le(&raw_index[b * 8], 8);
  if (index_.front() != kHeaderSize || index_.back() != h.index_offset)
    fail("block index does not span the blocks");
  for (uint64_t b = 0; b < h.blocks; ++b) {
    const uint64_t largest = codec_->max_size(block_boards(b), symbols());
    if (index_[b + 1] <= index_[b] || index_[b + 1] - index_[b] > largest)
      fail("block index entry " + std::to_string(b) + " is out of order or too large");
  }
}

LayerFile::Fd::~Fd() {
  if (fd >= 0) ::close(fd);
}

void LayerFile::fail(const std::string& why, DatabaseError::Problem p) const {
  throw DatabaseError(path_ + ": " + why, p);
}

void LayerFile::pread_exact(void* buf, size_t size, uint64_t offset) const {
  auto p = static_cast<char*>(buf);
  while (size > 0) {
    const ssize_t r = ::pread(fd_.fd, p, size, static_cast<off_t>(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0)
      fail(std::string("read failed: ") + std::strerror(errno),
           DatabaseError::Problem::kUnreadable);
    if (r == 0) fail("truncated");
    p += r;
    size -= static_cast<size_t>(r);
    offset += static_cast<uint64_t>(r);
  }
}

uint64_t LayerFile::block_boards(uint64_t block) const {
  const uint64_t first = block * header_.boards_per_block;
  return std::min<uint64_t>(header_.boards_per_block, header_.boards - first);
}

void LayerFile::read_block(uint64_t block, uint8_t* out) const {
  if (map_) return decode_in_place(block, out);
  thread_local std::vector<uint8_t> frame;
  const uint64_t n = block_boards(block);
  frame.resize(compressed_size(block));
  pread_exact(frame.data(), frame.size(), index_[block]);
  try {
    codec_->decode(frame.data(), frame.size(), n, symbols(), out);
  } catch (const std::runtime_error& e) {
    fail("block " + std::to_string(block) + " is damaged (" + e.what() + ")");
  }
  // Every code of layer s lies in 0..s (owner) or 0..2s (discard): anything else would be served
  // as a value no board can have.
  const uint8_t top = encode_value(header_.rules, header_.seeds, header_.seeds);
  const uint8_t highest = *std::max_element(out, out + n);
  if (highest > top)
    fail("block " + std::to_string(block) + " holds the code " + std::to_string(highest) +
         ", which no value of layer " + std::to_string(header_.seeds) + " has (at most " +
         std::to_string(top) + ")");
}

void LayerFile::read_all(uint8_t* out) const {
  tbb::parallel_for(uint64_t{0}, header_.blocks,
                    [&](uint64_t b) { read_block(b, out + b * header_.boards_per_block); });
}

void LayerFile::check_body() const {
  Checksum c;
  std::vector<char> buf(1 << 20);
  for (uint64_t at = kHeaderSize; at < header_.file_size;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(buf.size(), header_.file_size - at));
    pread_exact(buf.data(), n, at);
    c.update(buf.data(), n);
    at += n;
  }
  if (c.digest() != header_.body_checksum) fail("checksum mismatch: the file is damaged");
}

void LayerFile::for_each_block(const BlockVisitor& each) const {
  tbb::parallel_for(uint64_t{0}, header_.blocks, [&](uint64_t b) {
    thread_local std::vector<uint8_t> values;
    values.resize(block_boards(b));
    read_block(b, values.data());
    each(b, values.data(), values.size());
  });
}

}  // namespace kalah
