// Packing of bf16 operands (as their 16-bit patterns) for the float micro-kernel: each element
// widened to float, which is exact (a bf16 is a float's upper half), into the micro-panel order
// of kernels/pack.hpp. The product then runs at the float kernel's rate from operands half the
// size; a CPU with AVX512_BF16 could multiply the pairs themselves (simd/avx512_bf16.hpp).
#pragma once

#include <cstdint>
#include <cstring>

namespace ridge::kernels {

inline float widen_bf16(std::uint16_t bits) {
  const std::uint32_t word = static_cast<std::uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &word, sizeof f);
  return f;
}

// As pack_a: rows [0, m) x depth [0, kc), element (i, p) at a[i * rs + p * cs], into
// ceil(m / MR) micro-panels [kc][MR] of floats, rows past m zero.
template <class V, int MR>
void pack_bf16_a(std::int64_t m, std::int64_t kc, const std::uint16_t* a, std::int64_t rs,
                 std::int64_t cs, float* dst) {
  constexpr int W = V::width;
  if (rs == 1) {
    // Column-contiguous A (the weights of x W, row-major W): depth outermost, each column's rows
    // one sequential run, kColumns columns at a time, as pack_a (whose measurements say why).
    constexpr std::int64_t kColumns = 8;
    for (std::int64_t p0 = 0; p0 < kc; p0 += kColumns) {
      const std::int64_t columns = kc - p0 < kColumns ? kc - p0 : kColumns;
      for (std::int64_t i0 = 0; i0 < m; i0 += MR) {
        float* panel = dst + i0 * kc + p0 * MR;
        for (std::int64_t g = 0; g < columns; ++g) {
          const std::uint16_t* col = a + (p0 + g) * cs + i0;
          for (int i = 0; i < MR; i += W) {
            const std::int64_t left = m - i0 - i;
            V::store(panel + g * MR + i, left >= W ? V::load_bf16(col + i)
                                         : left > 0
                                             ? V::load_bf16_partial(col + i, static_cast<int>(left))
                                             : V::zero());
          }
        }
      }
    }
    return;
  }
  for (std::int64_t i0 = 0; i0 < m; i0 += MR, dst += kc * MR) {
    const int rows = static_cast<int>(m - i0 < MR ? m - i0 : MR);
    for (int i = 0; i < rows; ++i) {
      const std::uint16_t* row = a + (i0 + i) * rs;
      for (std::int64_t p = 0; p < kc; ++p) dst[p * MR + i] = widen_bf16(row[p * cs]);
    }
    for (int i = rows; i < MR; ++i)
      for (std::int64_t p = 0; p < kc; ++p) dst[p * MR + i] = 0.0f;
  }
}

// As pack_b: depth [0, kc) x columns [0, n), element (p, j) at b[p * rs + j * cs], into
// ceil(n / NR) micro-panels [kc][NR] of floats, columns past n zero.
template <int NR>
void pack_bf16_b(std::int64_t kc, std::int64_t n, const std::uint16_t* b, std::int64_t rs,
                 std::int64_t cs, float* dst) {
  for (std::int64_t j0 = 0; j0 < n; j0 += NR, dst += kc * NR) {
    const int cols = static_cast<int>(n - j0 < NR ? n - j0 : NR);
    for (int j = 0; j < cols; ++j) {
      const std::uint16_t* col = b + (j0 + j) * cs;
      for (std::int64_t p = 0; p < kc; ++p) dst[p * NR + j] = widen_bf16(col[p * rs]);
    }
    for (int j = cols; j < NR; ++j)
      for (std::int64_t p = 0; p < kc; ++p) dst[p * NR + j] = 0.0f;
  }
}

}  // namespace ridge::kernels
