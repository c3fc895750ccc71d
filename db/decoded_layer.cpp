// decoded_layer.cpp: checking, writing and mapping decoded copies (layout in decoded_layer.h).
#include "db/decoded_layer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <filesystem>
#include <optional>
#include <vector>

#include "db/atomic_file.h"
#include "db/checksum.h"
#include "db/file_names.h"
#include "db/le_bytes.h"

namespace kalah {
namespace {

constexpr char kMagic[8] = {'K', 'A', 'L', 'A', 'H', 'V', 'A', 'L'};
constexpr uint32_t kVersion = 1;
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

// Maps path read-only when it is a complete copy with exactly this header; else nothing.
const uint8_t* map_if_valid(const std::string& path, const std::vector<unsigned char>& header,
                            size_t size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st;
  unsigned char raw[kHeaderBytes];
  const bool valid = ::fstat(fd, &st) == 0 && static_cast<uint64_t>(st.st_size) == size &&
                     ::pread(fd, raw, kHeaderBytes, 0) == static_cast<ssize_t>(kHeaderBytes) &&
                     std::memcmp(raw, header.data(), kHeaderBytes) == 0;
  void* p = valid ? ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
  ::close(fd);  // the mapping keeps the file
  if (p == MAP_FAILED) return nullptr;
  // Pages read in from now on come in 2 MiB folios mapped whole: a probe then rarely misses the
  // TLB (Kalah(6,4): the search 15-20 % faster). Advice only.
  ::madvise(p, size, MADV_HUGEPAGE);
  return static_cast<const uint8_t*>(p);
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
  } catch (const DatabaseError&) {
    return false;
  }
  std::atomic<bool> failed{false};
  tbb::parallel_for(uint64_t{0}, h.blocks, [&](uint64_t b) {
    if (failed.load(std::memory_order_relaxed)) return;
    thread_local std::vector<uint8_t> values;
    values.resize(layer.block_boards(b));
    layer.read_block(b, values.data());
    try {
      file->write_at(values.data(), values.size(),
                     DecodedLayer::kValuesOffset + b * h.boards_per_block);
    } catch (const DatabaseError&) {
      failed = true;
    }
  });
  if (failed) return false;
  try {
    file->write_at(header.data(), header.size(), 0);  // last: only a whole copy has a header
    file->commit();
  } catch (const DatabaseError&) {
    return false;
  }
  return true;
}

}  // namespace

std::string DecodedLayer::path(const std::string& dir, const Rules& rules, int s) {
  std::string name = layer_file_name(rules, s);
  return dir + "/decoded/" + name.replace(name.size() - 4, 4, ".values");
}

std::unique_ptr<DecodedLayer> DecodedLayer::open(const LayerFile& layer, const std::string& dir) {
  const LayerHeader& h = layer.header();
  const std::string file = path(dir, h.rules, h.seeds);
  const std::vector<unsigned char> header = expected_header(layer);
  const size_t size = kValuesOffset + h.boards;
  if (const uint8_t* p = map_if_valid(file, header, size))
    return std::unique_ptr<DecodedLayer>(new DecodedLayer(p, size));
  const std::filesystem::path decoded_dir = std::filesystem::path(file).parent_path();
  std::error_code ec;
  std::filesystem::create_directory(decoded_dir, ec);
  if (ec || ::access(decoded_dir.c_str(), W_OK) != 0 || !room_for(decoded_dir, size))
    return nullptr;
  if (!write_copy(layer, decoded_dir, std::filesystem::path(file).filename(), header))
    return nullptr;
  // Written, the copy sits in the page cache in small folios, which stay small; dropped (it is
  // on disk), it is read back on demand in huge ones.
  if (const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
  }
  const uint8_t* p = map_if_valid(file, header, size);
  return p ? std::unique_ptr<DecodedLayer>(new DecodedLayer(p, size)) : nullptr;
}

bool DecodedLayer::present(const LayerFile& layer, const std::string& dir) {
  const LayerHeader& h = layer.header();
  const uint8_t* p =
      map_if_valid(path(dir, h.rules, h.seeds), expected_header(layer), kValuesOffset + h.boards);
  if (p) ::munmap(const_cast<uint8_t*>(p), kValuesOffset + h.boards);
  return p;
}

std::string DecodedLayer::check(const LayerFile& layer, const std::string& dir) {
  const LayerHeader& h = layer.header();
  const std::string file = path(dir, h.rules, h.seeds);
  const uint8_t* p = map_if_valid(file, expected_header(layer), kValuesOffset + h.boards);
  if (!p) return {};  // none, or stale: never read, replaced when next needed
  const DecodedLayer copy(p, kValuesOffset + h.boards);
  std::atomic<uint64_t> first_wrong{UINT64_MAX};
  tbb::parallel_for(uint64_t{0}, h.blocks, [&](uint64_t b) {
    thread_local std::vector<uint8_t> values;
    values.resize(layer.block_boards(b));
    layer.read_block(b, values.data());
    const uint8_t* stored = copy.values() + b * h.boards_per_block;
    if (std::memcmp(values.data(), stored, values.size()) == 0) return;
    const uint64_t at =
        b * h.boards_per_block +
        (std::mismatch(values.begin(), values.end(), stored).first - values.begin());
    uint64_t seen = first_wrong.load();
    while (at < seen && !first_wrong.compare_exchange_weak(seen, at)) {
    }
  });
  if (first_wrong == UINT64_MAX) return {};
  ::unlink(file.c_str());
  return file + ": differs from " + layer.path() + " at rank " +
         std::to_string(first_wrong.load()) + "; removed (the next search decodes it again)";
}

DecodedLayer::~DecodedLayer() {
  ::munmap(const_cast<uint8_t*>(base_), size_);
}

}  // namespace kalah
