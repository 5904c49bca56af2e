// 4 x 4 transposes shared by the AVX2 and AVX-512 traits (both have AVX): the packing of a
// row-contiguous operand into the micro-kernel's column order. Templates on the calling traits
// type, so the AVX2 and AVX-512 translation units each get their own copy, compiled with their
// own flags (a shared inline function would be merged by the linker across the two).
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace ridge::simd::x86 {

// dst[r * dst_stride + c] = src[c * src_stride + r] for r, c < 4 (SSE shuffles).
template <class Traits>
inline void transpose_4x4(const float* src, std::int64_t src_stride, float* dst,
                          std::int64_t dst_stride) {
  const __m128 r0 = _mm_loadu_ps(src), r1 = _mm_loadu_ps(src + src_stride);
  const __m128 r2 = _mm_loadu_ps(src + 2 * src_stride), r3 = _mm_loadu_ps(src + 3 * src_stride);
  const __m128 t0 = _mm_unpacklo_ps(r0, r1), t1 = _mm_unpackhi_ps(r0, r1);
  const __m128 t2 = _mm_unpacklo_ps(r2, r3), t3 = _mm_unpackhi_ps(r2, r3);
  _mm_storeu_ps(dst, _mm_movelh_ps(t0, t2));
  _mm_storeu_ps(dst + dst_stride, _mm_movehl_ps(t2, t0));
  _mm_storeu_ps(dst + 2 * dst_stride, _mm_movelh_ps(t1, t3));
  _mm_storeu_ps(dst + 3 * dst_stride, _mm_movehl_ps(t3, t1));
}

// The same for doubles (AVX shuffles).
template <class Traits>
inline void transpose_4x4(const double* src, std::int64_t src_stride, double* dst,
                          std::int64_t dst_stride) {
  const __m256d r0 = _mm256_loadu_pd(src), r1 = _mm256_loadu_pd(src + src_stride);
  const __m256d r2 = _mm256_loadu_pd(src + 2 * src_stride);
  const __m256d r3 = _mm256_loadu_pd(src + 3 * src_stride);
  const __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
  const __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
  _mm256_storeu_pd(dst, _mm256_permute2f128_pd(t0, t2, 0x20));
  _mm256_storeu_pd(dst + dst_stride, _mm256_permute2f128_pd(t1, t3, 0x20));
  _mm256_storeu_pd(dst + 2 * dst_stride, _mm256_permute2f128_pd(t0, t2, 0x31));
  _mm256_storeu_pd(dst + 3 * dst_stride, _mm256_permute2f128_pd(t1, t3, 0x31));
}

}  // namespace ridge::simd::x86
