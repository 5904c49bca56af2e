// Page-aligned memory straight from mmap, with the page size asked for explicitly, for the
// bandwidth and latency sweeps (sizes up to 1 GiB, where 4 KiB vs 2 MiB pages matter).
#pragma once

#include <cstddef>

namespace ridge::probe::detail {

enum class PageRequest {
  os_default,  // whatever the OS does (transparent huge pages only if set to "always")
  small,       // madvise(MADV_NOHUGEPAGE): 4 KiB pages
  huge,        // madvise(MADV_HUGEPAGE): 2 MiB pages where the OS allows them
};

class MappedBuffer {
 public:
  // Throws std::bad_alloc when the mapping fails. Memory is not touched (no page is backed yet).
  MappedBuffer(std::size_t bytes, PageRequest pages);
  ~MappedBuffer();
  MappedBuffer(const MappedBuffer&) = delete;
  MappedBuffer& operator=(const MappedBuffer&) = delete;

  char* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  // The fraction of the buffer the kernel backs with huge pages now (AnonHugePages of this
  // mapping in /proc/self/smaps); 0 where that is unknown.
  double huge_page_fraction() const;

 private:
  char* data_ = nullptr;  // 2 MiB aligned inside the mapping, so huge pages can back it
  std::size_t bytes_ = 0;
  void* mapping_ = nullptr;
  std::size_t mapping_bytes_ = 0;
};

}  // namespace ridge::probe::detail
