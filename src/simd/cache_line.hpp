// The cache line that prefetches and thread boundaries step by.
#pragma once

#include <cstdint>

namespace ridge::simd {

// Bytes per cache line: 64 on every x86-64 core and most aarch64 ones (ridge::Machine reports
// the real figure; a core with 128-byte lines only gets each line asked for twice).
inline constexpr int kLineBytes = 64;
template <class T>
inline constexpr int kLineElements = kLineBytes / static_cast<int>(sizeof(T));

// Asks for p's line to be brought into L2. GCC 12 counts a prefetch as no effect, and C++'s
// forward-progress rule (-ffinite-loops) then lets it delete a loop of nothing but prefetches:
// it did so to the residual's fetch in gemm/amx_loops.hpp (no prefetch left in the tiles, bf16
// 4096^3 with a residual 0.80x). The empty volatile asm, no instruction, is an effect it keeps.
[[gnu::always_inline]] inline void prefetch_line(const void* p) {
  __builtin_prefetch(p, 0, 2);
  asm volatile("");
}

// Asks for the lines of elements [0, count) from p on (count > 0) to be brought into L2.
template <class T>
[[gnu::always_inline]] inline void prefetch_run(const T* p, std::int64_t count) {
  for (std::int64_t i = 0; i < count; i += kLineElements<T>) prefetch_line(p + i);
  prefetch_line(p + count - 1);  // the last line, where p is off a line
}

}  // namespace ridge::simd
