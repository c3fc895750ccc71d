// big_array.h: a large zero-initialised byte array in anonymous memory, in transparent huge pages
// where the kernel allows (a layer is read at random: 2 MiB pages spare most TLB misses).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

namespace kalah {

class BigArray {
 public:
  BigArray() = default;
  explicit BigArray(size_t size) : size_(size) {
    if (size == 0) return;
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, size, MADV_HUGEPAGE);  // advice only
    data_ = static_cast<uint8_t*>(p);
  }
  BigArray(BigArray&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  BigArray& operator=(BigArray&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  ~BigArray() {
    if (data_) munmap(data_, size_);
  }

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace kalah
