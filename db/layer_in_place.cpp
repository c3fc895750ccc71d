// layer_in_place.cpp: probing a layer file where it lies, mapped (layer_file.h), through its
// codec (db/layer_codec.h): format 3's views, or format 2's blocks as they are.
#include <sys/mman.h>

#include <cerrno>
#include <cstring>

#include "db/layer_file.h"

namespace kalah {

LayerFile::~LayerFile() {
  unwatch_faults(watch_);
  if (map_) ::munmap(const_cast<uint8_t*>(map_), header_.file_size);
}

void LayerFile::map_file() {
  void* p = ::mmap(nullptr, header_.file_size, PROT_READ, MAP_SHARED, fd_.fd, 0);
  if (p == MAP_FAILED)
    fail(std::string("cannot map: ") + std::strerror(errno), DatabaseError::Problem::kUnreadable);
  map_ = static_cast<const uint8_t*>(p);
  watch_ = watch_faults(p, header_.file_size, &faulted_);
  // Pages come in 2 MiB folios where the kernel can: a probe then rarely misses the TLB, as with
  // format 1's decoded copies (docs/design.md §6). Advice only.
  ::madvise(p, header_.file_size, MADV_HUGEPAGE);
  checked_ = HugeArray<std::atomic<bool>>(header_.blocks);
  if (!views_probe_) return;
  views_ = HugeArray<value_lines::View>(header_.blocks);
  tables_at_.resize(header_.blocks + 1);
  for (uint64_t b = 0; b < header_.blocks; ++b)
    tables_at_[b + 1] = tables_at_[b] + value_lines::View::tables_size(compressed_size(b),
                                                                       block_boards(b), symbols());
  tables_ = HugeArray<uint8_t>(tables_at_.back());  // touched only where blocks are checked
}

int LayerFile::symbols() const {
  return encode_value(header_.rules, header_.seeds, header_.seeds) + 1;
}

bool LayerFile::written_since_open() const {
  const FileStamp now = FileStamp::of(fd_.fd);
  const std::lock_guard<std::mutex> lock(stamp_mutex_);
  if (now == opened_) return false;
  if (!now.same_size_and_mtime(opened_)) return true;
  // The change time alone moved: a chmod, a link, a rename, or bytes written with the time put
  // back. The bytes decide: the header as read at open, the body to its checksum.
  if (!bytes_as_opened()) return true;
  opened_ = now;
  return false;
}

bool LayerFile::bytes_as_opened() const {
  try {
    unsigned char raw[kHeaderSize];
    pread_exact(raw, kHeaderSize, 0);
    if (std::memcmp(raw, raw_header_, kHeaderSize) != 0) return false;
    check_body();
    return true;
  } catch (const DatabaseError&) {
    return false;
  }
}

void LayerFile::refuse_changed() const {
  refused_.store(true);
  // Every block goes back to unchecked, and a check refuses: a probe of a block checked before
  // the change reads nothing more from the file.
  for (uint64_t b = 0; b < header_.blocks; ++b) checked_[b].store(false, std::memory_order_release);
}

void LayerFile::check_block(uint64_t block) const {
  if (refused_.load())
    fail(
        "changed while in use (written to by another program); its values are refused until "
        "kalah opens it again");
  const uint8_t* at = map_ + index_[block];
  const std::string wrong =
      codec_->check(at, compressed_size(block), block_boards(block), symbols(), block);
  if (!wrong.empty()) fail("block " + std::to_string(block) + " is damaged (" + wrong + ")");
  if (views_probe_) {
    const std::lock_guard<std::mutex> lock(views_mutex_);
    // Made once, never changed after: a probe may be reading them (a block unchecked by
    // refuse_changed keeps its tables).
    if (views_[block].empty()) try {
        views_[block] = value_lines::View(at, compressed_size(block), block_boards(block),
                                          symbols(), tables_.data() + tables_at_[block]);
      } catch (const std::runtime_error& e) {
        fail("block " + std::to_string(block) + " is damaged (" + e.what() + ")");
      }
  }
  checked_[block].store(true, std::memory_order_release);
  if (refused_.load()) {  // refused meanwhile: no block may stay checked
    checked_[block].store(false, std::memory_order_release);
    check_block(block);  // throws
  }
}

void LayerFile::decode_in_place(uint64_t block, uint8_t* out) const {
  check_block(block);
  try {
    if (views_probe_)
      views_[block].decode(out);
    else
      codec_->decode(map_ + index_[block], compressed_size(block), block_boards(block), symbols(),
                     out);
  } catch (const std::runtime_error& e) {
    fail("block " + std::to_string(block) + " is damaged (" + e.what() + ")");
  }
}

uint8_t LayerFile::probe(uint64_t block, uint64_t i) const {
  try {
    if (views_probe_) return views_[block].at(i);
    return codec_->at(map_ + index_[block], compressed_size(block), block_boards(block), symbols(),
                      i);
  } catch (const std::runtime_error& e) {
    fail("block " + std::to_string(block) + " is damaged (" + e.what() + ")");
  }
}

}  // namespace kalah
