// The cache line that prefetches and thread boundaries step by.
#pragma once

namespace ridge::simd {

// Bytes per cache line: 64 on every x86-64 core and most aarch64 ones (ridge::Machine reports
// the real figure; a core with 128-byte lines only gets each line asked for twice).
inline constexpr int kLineBytes = 64;
template <class T>
inline constexpr int kLineElements = kLineBytes / static_cast<int>(sizeof(T));

}  // namespace ridge::simd
