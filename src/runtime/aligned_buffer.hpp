// Cache-line aligned scratch memory: the packing buffers of each thread.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

namespace ridge::detail {

// A growable buffer aligned to a 4 KiB page, so packed panels start on a cache line and do not
// share pages with other data. Contents are not preserved when it grows.
class AlignedBuffer {
 public:
  void* get(std::size_t bytes) {
    if (bytes > capacity_) {
      constexpr std::size_t page = 4096;
      const std::size_t rounded = (bytes + page - 1) / page * page;
      void* memory = std::aligned_alloc(page, rounded);
      if (memory == nullptr) throw std::bad_alloc();
      data_.reset(memory);
      capacity_ = rounded;
    }
    return data_.get();
  }

 private:
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  std::unique_ptr<void, Free> data_;
  std::size_t capacity_ = 0;
};

}  // namespace ridge::detail

namespace ridge::detail {

// Per-thread scratch buffers, one per `slot`, kept across calls so that no call allocates once
// the sizes have been seen: the kernels' packed A and B, and GEMV's x and y brought to unit
// stride (which the dot kernels' own copy of x in packed_b must not overwrite), and decoding
// attention's queries and scores (around GEMM calls that use the packing slots).
enum class ScratchSlot { packed_a, packed_b, unit_x, unit_y, attention, count };
AlignedBuffer& thread_scratch(ScratchSlot slot);

}  // namespace ridge::detail
