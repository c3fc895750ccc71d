// layer_file.h: the file that holds one layer of a database, and its byte layout.
//
// One file per rule variant and layer s: every board with s seeds on the pits, in rank order
// (db/rank.h), one value per board (db/value_code.h), in blocks of 65,536 boards coded
// independently. File names: db/file_names.h. This header owns the layout; how a block is coded
// is its format version's codec (db/layer_codec.h), chosen there and nowhere else.
//
// Format 3 (what kalah writes unless told) codes each block as db/value_lines.h says: a search
// probes the mapped file where it lies, reading one 64-byte line (its block's tables and line
// index held in memory) and decoding at most 32 values. Format 2 coded each block as
// db/value_blocks.h says (searched in place too, its probe waiting on two dependent loads and a
// table); format 1 compressed each block with zstd into one frame with its content checksum (a
// search decodes it into a copy, db/decoded_layer.h). Both are still read, and `kalah build
// --format 1|2` still writes them.
//
// Layout; all integers little endian:
//
//   offset size  field
//     0     8    magic "KALAHDB" followed by 0x1A
//     8     4    format version (1, 2 or 3)
//    12     1    m, pits per row
//    13     1    capture rule   (0 standard, 1 empty)
//    14     1    end rule       (0 immediate, 1 on-turn)
//    15     1    remainder rule (0 owner, 1 discard)
//    16     2    layer s: seeds on the board
//    18     1    value encoding (db/value_code.h: 1 byte = (V+s)/2, owner; 2 byte = V+s, discard)
//    19     1    block coding: 0 zstd frames (format 1), 1 value blocks (format 2), 2 value
//                  lines (format 3)
//    20     4    boards per block
//    24     8    boards in the layer, C(s+2m-1, 2m-1)
//    32     8    block count
//    40     8    index offset
//    48     8    file size
//    56     4    flags (bit 0: complete; a file without it is refused)
//    60     4    the kalah version that wrote the file: major << 16 | minor << 8 | patch (0:
//                  written before 0.1.0 recorded it); informative, never checked
//    64     8    checksum of bytes [128, file size): blocks and index   (base/checksum.h)
//    72     8    checksum of the index
//    80     8    checksum of bytes [0, 128) with this field read as 0
//    88    40    reserved, 0
//   128          blocks: format 1, each one zstd frame with its content checksum; format 2, each
//                a value block (db/value_blocks.h) with its own checksum; format 3, each a line
//                block (db/value_lines.h) with its own checksum, 64-byte aligned
//   index        block count + 1 offsets (u64): block i is [offset i, offset i+1); the last
//                offset is the index offset
// (What was tried for format 1's blocks: docs/experiments.md, "Database files".)
//
// Version history:
//   1  first format; from kalah 0.1.0 on, bytes 60..63 (reserved, 0, until then) hold the
//      version of kalah that wrote the file.
//   2  value blocks searched in place (kalah 0.9.0).
//   3  line blocks: a probe reads one line of values (December 2026).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/fault_watch.h"
#include "base/huge_array.h"
#include "base/regular_file.h"
#include "db/database_error.h"
#include "db/layer_codec.h"
#include "db/value_code.h"
#include "db/value_lines.h"
#include "game/rules.h"

namespace kalah {

inline constexpr size_t kHeaderSize = 128;
inline constexpr uint32_t kBoardsPerBlock = 1 << 16;

struct LayerHeader {
  uint32_t version = kFormatVersion;
  Rules rules;
  int seeds = 0;
  uint8_t encoding = 0;
  uint8_t coding = 0;  // its codec's (db/layer_codec.h)
  uint32_t boards_per_block = kBoardsPerBlock;
  uint64_t boards = 0;
  uint64_t blocks = 0;
  uint64_t index_offset = 0;
  uint64_t file_size = 0;
  uint32_t flags = 0;
  uint32_t writer = 0;  // the writing kalah's version, major << 16 | minor << 8 | patch
  uint64_t body_checksum = 0;
  uint64_t index_checksum = 0;
};

// "0.1.0", or "before 0.1.0" for a file that does not say.
std::string writer_version(const LayerHeader& h);

// How a layer is written: the format, and format 1's zstd level.
inline constexpr int kDefaultZstdLevel = 1;
struct LayerFormat {
  uint32_t version = kFormatVersion;
  int zstd_level = kDefaultZstdLevel;
};

// Writes the layer atomically: to DIR/NAME.tmp, synced, renamed to DIR/NAME, directory synced.
// Codes blocks in parallel (oneTBB, the caller's arena); the bytes do not depend on threads.
// Returns the file size.
uint64_t write_layer_file(const std::string& dir, const Rules& rules, int s, const uint8_t* values,
                          uint64_t boards, const LayerFormat& format = {});

// Block `block` of layer s as stored in `format`, from its values.
std::string layer_block(const Rules& rules, int s, uint64_t block, const uint8_t* values,
                        uint64_t count, const LayerFormat& format);
// The same write from frames made elsewhere (a build over several processes, mpi/io.h):
// `frames(first, count, out)` fills out[0..count) with the frames of blocks first.. on; it is
// asked for kWriteChunk blocks at a time, in order.
inline constexpr uint64_t kWriteChunk = 64;
using FrameSource =
    std::function<void(uint64_t first, uint64_t count, std::vector<std::string>& out)>;
uint64_t write_layer_file(const std::string& dir, const Rules& rules, int s, uint64_t boards,
                          const FrameSource& frames, uint32_t version = kFormatVersion);

// An open layer file: header and index checked at open, blocks checked when read. Thread-safe
// for concurrent reads.
class LayerFile {
 public:
  // Throws DatabaseError naming the file on any problem; `expect_rules`/`expect_seeds` must match.
  LayerFile(const std::string& path, const Rules& expect_rules, int expect_seeds);
  ~LayerFile();
  LayerFile(const LayerFile&) = delete;
  LayerFile& operator=(const LayerFile&) = delete;

  const std::string& path() const { return path_; }
  const LayerHeader& header() const { return header_; }
  uint64_t block_boards(uint64_t block) const;  // boards in this block
  uint64_t compressed_size(uint64_t block) const { return index_[block + 1] - index_[block]; }

  // Whether a search probes the file where it lies (formats 2 and 3), through value(r); format 1
  // is read a block at a time.
  bool in_place() const { return map_ != nullptr; }
  // The encoded value at rank r, read from the mapped file; in_place() only. The first probe of
  // a block checks it (db/value_lines.h, db/value_blocks.h) and throws DatabaseError when it is
  // damaged. Thread-safe.
  uint8_t value(uint64_t r) const {
    const uint64_t b = r / kBoardsPerBlock;
    if (!checked_[b].load(std::memory_order_acquire)) check_block(b);
    return probe(b, r % kBoardsPerBlock);
  }
  // Starts loading what value(r) reads first (a search prefetches its leaves): format 3, the
  // block's view from r alone when the views are loaded in a stage of their own, else the
  // view's tables; format 2, the block's head and offsets.
  void prefetch(uint64_t r) const {
    const uint64_t b = r / kBoardsPerBlock;
    if (views_probe_) {
      if (view_stage_) {
        __builtin_prefetch(&checked_[b]);
        __builtin_prefetch(&views_[b]);
      } else if (checked_[b].load(std::memory_order_acquire)) {
        views_[b].prefetch(r % kBoardsPerBlock);
      }
    } else {
      codec_->prefetch(map_ + index_[b], block_boards(b), symbols(), r % kBoardsPerBlock);
    }
  }
  // Then, each stage once the one before had time to arrive (LeafValues::prefetch_again):
  // format 3, the view's tables (stage 1, if the views have a stage of their own), then the
  // line they find; format 2, the code stream the offsets point to (1). Checked blocks only: an
  // unchecked block's tables and offsets are not trusted to point inside it.
  void prefetch_again(uint64_t r, int stage) const {
    const uint64_t b = r / kBoardsPerBlock;
    if (views_probe_) {
      if (!checked_[b].load(std::memory_order_acquire)) return;
      if (stage == 1 && view_stage_)
        views_[b].prefetch(r % kBoardsPerBlock);
      else if (stage == 1 + view_stage_)
        views_[b].prefetch_line(r % kBoardsPerBlock);
    } else if (stage == 1 && checked_[b].load(std::memory_order_relaxed)) {
      codec_->prefetch_stream(map_ + index_[b], r % kBoardsPerBlock);
    }
  }
  // Format 3: whether prefetch() loads the block's view alone, the tables and line following
  // in stages 1 and 2 (Database turns it on when the views are too many for the caches).
  void load_views_apart(bool on) { view_stage_ = on; }
  uint64_t views_bytes() const {
    return views_probe_ ? header_.blocks * sizeof(value_lines::View) : 0;
  }
  // Whether the mapped file was read past its end (truncated under the process) since it was
  // opened: values read from it may be wrong.
  bool faulted() const { return faulted_.load(); }
  // Whether the file was written to since it was opened (in place: `dd conv=notrunc`, or `cp`
  // onto its name, which keeps the inode): its size or modification time changed, or its change
  // time did and its bytes are no longer those read at open (a write with the time put back), so
  // values read from it may be wrong. One fstat; the bytes are read again only after a change of
  // the change time alone. A file renamed over its name is another file: this one's values stay
  // as they were.
  bool written_since_open() const;
  // From then on every probe of the layer throws DatabaseError naming the change: for the reader
  // that found written_since_open() (db/block_cache.h's check_copies). Thread-safe.
  void refuse_changed() const;
  bool refused() const { return refused_.load(); }

  // Decodes block `block` into out (block_boards(block) bytes of encoded values), checking that
  // every value is one this layer can hold.
  void read_block(uint64_t block, uint8_t* out) const;
  // Decodes all blocks into out (header().boards bytes), in parallel.
  void read_all(uint8_t* out) const;
  // Decodes every block, checked, in parallel, and calls each(block, values, count) with it
  // (from any thread; the values live until it returns).
  using BlockVisitor = std::function<void(uint64_t block, const uint8_t* values, uint64_t count)>;
  void for_each_block(const BlockVisitor& each) const;
  // Recomputes the checksum of the body (blocks and index); throws if it does not match.
  void check_body() const;
  // Decodes every block (in parallel), so that a code no value of the layer has is found.
  void check_values() const {
    for_each_block([](uint64_t, const uint8_t*, uint64_t) {});
  }

 private:
  void pread_exact(void* buf, size_t size, uint64_t offset) const;
  [[noreturn]] void fail(const std::string& why,
                         DatabaseError::Problem p = DatabaseError::Problem::kDamaged) const;
  // Checks that the header's fields agree with each other, with the rules and layer expected
  // and with the file's size (all before anything is sized from them).
  void check_header(const Rules& expect_rules, int expect_seeds, uint64_t actual_size) const;
  void read_index();
  void map_file();
  void check_block(uint64_t block) const;
  // Whether the header and body are still the bytes read at open (read again, checksummed).
  bool bytes_as_opened() const;
  uint8_t probe(uint64_t block, uint64_t i) const;
  void decode_in_place(uint64_t block, uint8_t* out) const;
  int symbols() const;  // codes a value of this layer can have

  struct Fd {
    int fd = -1;
    ~Fd();
  };
  std::string path_;
  Fd fd_;  // closed by its own destructor, also when the constructor throws
  LayerHeader header_;
  const LayerCodec* codec_ = nullptr;  // the header's version's
  bool views_probe_ = false;           // codec_->views, where a probe reads it first
  std::vector<uint64_t> index_;
  // Formats 2 and 3: the file mapped, each block's first check done, reads past the end seen.
  const uint8_t* map_ = nullptr;
  // In huge pages, as the views' tables: a search reads them at random, every probe (docs/
  // experiments.md, "Line layouts").
  mutable HugeArray<std::atomic<bool>> checked_;
  // Format 3: each checked block's view, made at its first check (under views_mutex_, once) and
  // read once checked_ says so; its tables at tables_at_[block] in tables_.
  mutable HugeArray<value_lines::View> views_;
  mutable HugeArray<uint8_t> tables_;
  std::vector<uint64_t> tables_at_;
  bool view_stage_ = false;
  mutable std::mutex views_mutex_;
  std::atomic<bool> faulted_{false};
  FaultRange* watch_ = nullptr;
  // As fstat saw the file at open (or at the last check that found its bytes unchanged), and the
  // header's bytes then.
  mutable FileStamp opened_;
  mutable std::mutex stamp_mutex_;
  unsigned char raw_header_[kHeaderSize] = {};
  mutable std::atomic<bool> refused_{false};
};

}  // namespace kalah
