// mmap-backed buffers with an explicit page-size request.
#include "probe/mapped_buffer.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <new>
#include <sstream>
#include <string>

namespace ridge::probe::detail {
namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
}

MappedBuffer::MappedBuffer(std::size_t bytes, PageRequest pages) : bytes_(bytes) {
  // Room to align the start to 2 MiB and to round a huge-page request up to whole huge pages
  // (the kernel backs only aligned 2 MiB ranges, so a 64 KiB buffer gets one huge page too).
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  mapping_bytes_ = rounded + kHugePage;
  mapping_ = mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping_ == MAP_FAILED) {
    mapping_ = nullptr;
    throw std::bad_alloc();
  }
  const auto start = reinterpret_cast<std::uintptr_t>(mapping_);
  data_ = reinterpret_cast<char*>((start + kHugePage - 1) / kHugePage * kHugePage);
  // madvise may fail (no THP in the kernel): the buffer is then simply what the OS gives.
  if (pages == PageRequest::huge) madvise(data_, rounded, MADV_HUGEPAGE);
  if (pages == PageRequest::small) madvise(data_, bytes_, MADV_NOHUGEPAGE);
}

MappedBuffer::~MappedBuffer() {
  if (mapping_ != nullptr) munmap(mapping_, mapping_bytes_);
}

double MappedBuffer::huge_page_fraction() const {
  // smaps lists each mapping as "start-end perms ..." followed by its fields; madvise splits the
  // mapping, so look for the area that starts at data_.
  std::ifstream smaps("/proc/self/smaps");
  std::ostringstream start;
  start << std::hex << reinterpret_cast<std::uintptr_t>(data_) << '-';
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    if (line.rfind(start.str(), 0) == 0) {
      inside = true;
    } else if (inside && line.rfind("AnonHugePages:", 0) == 0) {
      std::istringstream fields(line.substr(14));
      double kib = 0;
      fields >> kib;
      return std::min(1.0, kib * 1024 / static_cast<double>(bytes_));
    }
  }
  return 0;
}

}  // namespace ridge::probe::detail
