// Placing an operand a given number of elements past a cache-line start, as a heap block may
// leave it, for the tests of what depends on where data starts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "simd/cache_line.hpp"

namespace ridge::test {

// The element `offset` elements past the first line start in `storage`, which must hold a line
// more than the caller uses from there.
template <class T>
T* past_line_start(std::vector<T>& storage, std::size_t offset) {
  const auto address = reinterpret_cast<std::uintptr_t>(storage.data());
  const std::size_t to_line =
      (simd::kLineBytes - address % simd::kLineBytes) % simd::kLineBytes / sizeof(T);
  return storage.data() + to_line + offset;
}

}  // namespace ridge::test
