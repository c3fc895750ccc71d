// huge_array.h: a large zero-filled array in anonymous memory, in transparent huge pages where
// the kernel allows. The transposition table and database layers are read at random: 2 MiB pages
// spare most TLB misses. The one place kalah maps memory.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace kalah {

// T must be valid as all-zero bytes (the pages come zeroed) and need no destructor.
template <class T>
class HugeArray {
  static_assert(std::is_trivially_destructible_v<T>);

 public:
  HugeArray() = default;
  explicit HugeArray(size_t count) : size_(count) {
    if (count == 0) return;
    // NORESERVE: a table reserves its limit and touches only what it uses
    // (solver/transposition_table.h); reserving more than the machine has must not fail.
    void* p = mmap(nullptr, bytes(), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, bytes(), MADV_HUGEPAGE);  // advice only: failure just means small pages
    data_ = static_cast<T*>(p);
  }
  HugeArray(HugeArray&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  HugeArray& operator=(HugeArray&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  ~HugeArray() {
    if (data_) munmap(data_, bytes());
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  size_t bytes() const { return size_ * sizeof(T); }

  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace kalah
