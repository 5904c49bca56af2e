// Packing of bf16 operands (as their 16-bit patterns) for the float micro-kernel: each element
// widened to float, which is exact (a bf16 is a float's upper half), into the micro-panel order
// of kernels/pack.hpp (whose pack_a and PackAInSteps read A through load_stored, as do the
// matrix-vector kernels). The product then runs at the float kernel's rate from operands half
// the size; a CPU with AVX512_BF16 could multiply the pairs themselves (simd/avx512_bf16.hpp).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ridge::kernels {

inline float widen_bf16(std::uint16_t bits) {
  const std::uint32_t word = static_cast<std::uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &word, sizeof f);
  return f;
}

// V's vector of its scalars from A as stored: those scalars, or bf16 bit patterns widened (the
// loads of the kernels that read A as stored: pack_a, PackAInSteps, ColumnSweep).
template <class V, class Source>
typename V::reg load_stored(const Source* p) {
  if constexpr (std::is_same_v<Source, std::uint16_t>) {
    return V::load_bf16(p);
  } else {
    return V::load(p);
  }
}
template <class V, class Source>
typename V::reg load_stored_partial(const Source* p, int n) {
  if constexpr (std::is_same_v<Source, std::uint16_t>) {
    return V::load_bf16_partial(p, n);
  } else {
    return V::load_partial(p, n);
  }
}
// One element likewise.
template <class T, class Source>
T stored_value(Source x) {
  if constexpr (std::is_same_v<Source, std::uint16_t>) {
    return widen_bf16(x);
  } else {
    return x;
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
