// decoded_layer.cpp: checking, writing and mapping decoded copies (layout in decoded_layer.h).
#include "db/decoded_layer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <vector>

#include "base/atomic_file.h"
#include "base/checksum.h"
#include "base/fault_watch.h"
#include "base/le_bytes.h"
#include "base/regular_file.h"
#include "db/file_names.h"

// Inlined (no library at run time): each block is hashed by the first reader of every process,
// so the hash is a search's cost (docs/design.md §6).
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace kalah {
namespace {

constexpr char kMagic[8] = {'K', 'A', 'L', 'A', 'H', 'V', 'A', 'L'};
constexpr uint32_t kVersion = 3;
constexpr size_t kHeaderBytes = 48;  // the fields; the rest of the first page is zero

// The header a copy of `layer` must have, byte for byte.
std::vector<unsigned char> expected_header(const LayerFile& layer) {
  const LayerHeader& h = layer.header();
  std::vector<unsigned char> out(kHeaderBytes, 0);
  std::memcpy(out.data(), kMagic, 8);
  put_le(&out[8], kVersion, 4);
  put_le(&out[12], static_cast<uint64_t>(h.rules.pits), 1);
  put_le(&out[13], static_cast<uint64_t>(h.rules.capture), 1);
  put_le(&out[14], static_cast<uint64_t>(h.rules.end), 1);
  put_le(&out[15], static_cast<uint64_t>(h.rules.remainder), 1);
  put_le(&out[16], static_cast<uint64_t>(h.seeds), 2);
  put_le(&out[24], h.boards, 8);
  put_le(&out[32], h.body_checksum, 8);
  put_le(&out[40], Checksum::of(out.data(), 40), 8);
  return out;
}

// A copy's size in bytes.
uint64_t copy_size(const LayerFile& layer) {
  return DecodedLayer::values_offset(layer.header().boards) + layer.header().boards;
}

}  // namespace

// A copy mapped read-only, the file kept open to notice changes.
struct DecodedLayer::Mapping {
  std::string path;
  int fd = -1;
  struct stat at_map {};
  const uint8_t* base = nullptr;
  size_t size = 0;
  uint64_t boards = 0, seed = 0;
  std::atomic<bool> faulted{false};
  FaultRange* watch = nullptr;

  ~Mapping() {
    unwatch_faults(watch);
    if (base) ::munmap(const_cast<uint8_t*>(base), size);
    if (fd >= 0) ::close(fd);
  }
};

namespace {

// Maps path read-only when it is a complete copy with exactly this header; else nothing.
std::unique_ptr<DecodedLayer::Mapping> map_if_valid(const std::string& path,
                                                    const std::vector<unsigned char>& header,
                                                    const LayerHeader& layer, size_t size) {
  auto m = std::make_unique<DecodedLayer::Mapping>();
  m->path = path;
  m->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);  // no FIFO waits
  if (m->fd < 0) return nullptr;
  unsigned char raw[kHeaderBytes];
  const bool valid = ::fstat(m->fd, &m->at_map) == 0 && S_ISREG(m->at_map.st_mode) &&
                     static_cast<uint64_t>(m->at_map.st_size) == size &&
                     ::pread(m->fd, raw, kHeaderBytes, 0) == static_cast<ssize_t>(kHeaderBytes) &&
                     std::memcmp(raw, header.data(), kHeaderBytes) == 0;
  void* p = valid ? ::mmap(nullptr, size, PROT_READ, MAP_SHARED, m->fd, 0) : MAP_FAILED;
  if (p == MAP_FAILED) return nullptr;
  m->base = static_cast<const uint8_t*>(p);
  m->size = size;
  m->boards = layer.boards;
  m->seed = layer.body_checksum;
  m->watch = watch_faults(p, size, &m->faulted);
  // Pages read in from now on come in 2 MiB folios mapped whole: a probe then rarely misses the
  // TLB (docs/design.md §6). Advice only.
  ::madvise(p, size, MADV_HUGEPAGE);
  return m;
}

// Whether writing `size` bytes into dir leaves enough free: 1 GiB and a twentieth of the file
// system, so that a cache never fills a disk.
bool room_for(const std::string& dir, uint64_t size) {
  struct statvfs fs;
  if (::statvfs(dir.c_str(), &fs) != 0) return false;
  const uint64_t free = static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize;
  const uint64_t total = static_cast<uint64_t>(fs.f_blocks) * fs.f_frsize;
  return free >= size + std::max<uint64_t>(uint64_t{1} << 30, total / 20);
}

// Decodes every block of `layer` into a new copy named `name` in decoded_dir. False when the
// copy cannot be written (a refused create, a full disk): that only costs speed. A damaged block
// of the layer throws: the caller must hear of it.
bool write_copy(const LayerFile& layer, const std::string& decoded_dir, const std::string& name,
                const std::vector<unsigned char>& header) {
  const LayerHeader& h = layer.header();
  std::optional<AtomicFile> file;
  try {
    file.emplace(decoded_dir, name);
  } catch (const FileError&) {
    return false;
  }
  std::atomic<bool> failed{false};
  const uint64_t values_at = DecodedLayer::values_offset(h.boards);
  layer.for_each_block([&](uint64_t b, const uint8_t* values, uint64_t n) {
    if (failed.load(std::memory_order_relaxed)) return;
    unsigned char sum[8];
    put_le(sum, DecodedLayer::block_checksum(values, n, h.body_checksum + b), 8);
    try {
      file->write_at(values, n, values_at + b * h.boards_per_block);
      file->write_at(sum, 8, DecodedLayer::kTableOffset + 8 * b);
    } catch (const FileError&) {
      failed = true;
    }
  });
  if (failed) return false;
  try {
    file->write_at(header.data(), header.size(), 0);  // last: only a whole copy has a header
    file->commit();
  } catch (const FileError&) {
    return false;
  }
  return true;
}

}  // namespace

uint64_t DecodedLayer::values_offset(uint64_t boards) {
  const uint64_t blocks = (boards + kBoardsPerBlock - 1) / kBoardsPerBlock;
  return kTableOffset + (8 * blocks + 4095) / 4096 * 4096;
}

uint64_t DecodedLayer::block_checksum(const uint8_t* values, uint64_t n, uint64_t seed) {
  return XXH3_64bits_withSeed(values, n, seed);
}

DecodedLayer::DecodedLayer(std::unique_ptr<Mapping> m)
    : map_(std::move(m)), values_(map_->base + values_offset(map_->boards)) {}

bool DecodedLayer::checked(uint64_t b) const {
  const uint64_t first = b * kBoardsPerBlock;
  const uint64_t n = std::min<uint64_t>(kBoardsPerBlock, map_->boards - first);
  const uint64_t want = load_le64(map_->base + kTableOffset + 8 * b);
  return block_checksum(values_ + first, n, map_->seed + b) == want && !map_->faulted.load();
}

bool DecodedLayer::changed() const {
  // Not the change time: another process removing this copy (found damaged, or replaced)
  // changes that, not the values (base/regular_file.h).
  // Size and time: a copy is kalah's own file, not a user's to chmod or link (its change time
  // alone is not compared).
  return map_->faulted.load() ||
         !FileStamp::of(map_->fd).same_size_and_mtime(FileStamp::of(map_->at_map));
}

void DecodedLayer::remove() const {
  // Only if the name still holds this copy: another process may have rewritten it already.
  struct stat now;
  if (::stat(map_->path.c_str(), &now) == 0 && now.st_ino == map_->at_map.st_ino &&
      now.st_dev == map_->at_map.st_dev)
    ::unlink(map_->path.c_str());
}

std::string DecodedLayer::path(const std::string& dir, const Rules& rules, int s) {
  std::string name = layer_file_name(rules, s);
  return dir + "/decoded/" + name.replace(name.size() - 4, 4, ".values");
}

std::unique_ptr<DecodedLayer> DecodedLayer::map_current(const LayerFile& layer,
                                                        const std::string& dir) {
  // Copies live in the database directory itself: a link elsewhere (a symlinked decoded/, a
  // linked copy) is not followed, and no copy is written there.
  if (std::filesystem::is_symlink(dir + "/decoded")) return nullptr;
  const LayerHeader& h = layer.header();
  auto m = map_if_valid(path(dir, h.rules, h.seeds), expected_header(layer), h, copy_size(layer));
  return m ? std::unique_ptr<DecodedLayer>(new DecodedLayer(std::move(m))) : nullptr;
}

std::unique_ptr<DecodedLayer> DecodedLayer::open(const LayerFile& layer, const std::string& dir) {
  if (auto copy = map_current(layer, dir)) return copy;
  if (std::filesystem::is_symlink(dir + "/decoded")) return nullptr;
  const LayerHeader& h = layer.header();
  const std::filesystem::path file = path(dir, h.rules, h.seeds);
  std::error_code ec;
  std::filesystem::create_directory(file.parent_path(), ec);
  if (ec || ::access(file.parent_path().c_str(), W_OK) != 0 ||
      !room_for(file.parent_path(), copy_size(layer)) ||
      !write_copy(layer, file.parent_path(), file.filename(), expected_header(layer)))
    return nullptr;
  // Written, the copy sits in the page cache in small folios, which stay small; dropped (it is
  // on disk), it is read back on demand in huge ones.
  if (const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK); fd >= 0) {
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
  }
  return map_current(layer, dir);
}

uint64_t DecodedLayer::present(const LayerFile& layer, const std::string& dir) {
  return map_current(layer, dir) ? copy_size(layer) : 0;
}

std::string DecodedLayer::check(const LayerFile& layer, const std::string& dir) {
  // No copy, or a stale one (never read, replaced when next needed): the blocks are still checked.
  const std::unique_ptr<DecodedLayer> copy = map_current(layer, dir);
  const uint32_t per_block = layer.header().boards_per_block;
  std::atomic<uint64_t> first_wrong{UINT64_MAX};
  layer.for_each_block([&](uint64_t b, const uint8_t* values, uint64_t n) {
    if (!copy) return;
    const uint8_t* stored = copy->values() + b * per_block;
    if (std::memcmp(values, stored, n) == 0) return;
    const uint64_t at = b * per_block + (std::mismatch(values, values + n, stored).first - values);
    uint64_t seen = first_wrong.load();
    while (at < seen && !first_wrong.compare_exchange_weak(seen, at)) {
    }
  });
  if (first_wrong == UINT64_MAX) return {};
  const std::string file = path(dir, layer.header().rules, layer.header().seeds);
  ::unlink(file.c_str());
  return file + ": differs from " + layer.path() + " at rank " +
         std::to_string(first_wrong.load()) + "; removed (the next search decodes it again)";
}

DecodedLayer::~DecodedLayer() = default;

}  // namespace kalah
