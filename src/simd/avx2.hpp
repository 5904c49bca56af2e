// Vector traits for AVX2 + FMA (256-bit, 16 registers). Include only from sources compiled with
// the AVX2 flags (cmake/isa_flags.cmake).
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "simd/x86_transpose.hpp"

namespace ridge::simd {

namespace avx2_detail {
// Lane mask with the first n of 8 32-bit lanes set (maskload/maskstore read only the sign bit).
inline __m256i first_lanes32(int n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
inline __m256i first_lanes64(int n) {
  return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3));
}
}  // namespace avx2_detail

template <class T>
struct Avx2;

template <>
struct Avx2<float> {
  using scalar = float;
  using reg = __m256;
  static constexpr int width = 8;
  static constexpr const char* name = "avx2";

  static reg zero() { return _mm256_setzero_ps(); }
  static reg set1(float x) { return _mm256_set1_ps(x); }
  static reg broadcast(const float* p) { return _mm256_broadcast_ss(p); }
  static reg load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, reg a) { _mm256_storeu_ps(p, a); }
  static reg load_partial(const float* p, int n) {
    return _mm256_maskload_ps(p, avx2_detail::first_lanes32(n));
  }
  static void store_partial(float* p, reg a, int n) {
    _mm256_maskstore_ps(p, avx2_detail::first_lanes32(n), a);
  }
  static constexpr bool fused_fma = true;  // fma rounds once
  static reg fma(reg a, reg b, reg c) { return _mm256_fmadd_ps(a, b, c); }
  static reg fms(reg a, reg b, reg c) { return _mm256_fmsub_ps(a, b, c); }  // a b - c
  static reg mul(reg a, reg b) { return _mm256_mul_ps(a, b); }
  static reg add(reg a, reg b) { return _mm256_add_ps(a, b); }
  static reg sub(reg a, reg b) { return _mm256_sub_ps(a, b); }
  // b where the two are unordered (a NaN) or equal.
  static reg max(reg a, reg b) { return _mm256_max_ps(a, b); }
  static reg min(reg a, reg b) { return _mm256_min_ps(a, b); }
  static reg div(reg a, reg b) { return _mm256_div_ps(a, b); }
  // -|a|: the sign bit set (a NaN stays one).
  static reg minus_magnitude(reg a) { return _mm256_or_ps(a, _mm256_set1_ps(-0.0f)); }
  // a in the lanes whose `sign` has its sign bit set, b in the others.
  static reg blend_by_sign(reg sign, reg a, reg b) { return _mm256_blendv_ps(b, a, sign); }
  // Whether a < b in any lane (false where either is a NaN).
  static bool any_less(reg a, reg b) {
    return _mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_LT_OQ)) != 0;
  }
  static reg floor(reg a) { return _mm256_floor_ps(a); }
  // The float of `units` x 2^-149 (units in [0, 2^23], rounded to an integer as arithmetic
  // rounds), with sign's sign, built from its bits: a subnormal (or zero, or 2^-126) that no
  // arithmetic instruction has to produce (each that does takes a microcode assist).
  static reg from_subnormal_units(reg units, reg sign) {
    return _mm256_or_ps(_mm256_castsi256_ps(_mm256_cvtps_epi32(units)),
                        _mm256_and_ps(sign, _mm256_set1_ps(-0.0f)));
  }
  // bf16 (a float's upper half) widened exactly: zero-extend each 16-bit lane and shift it up.
  static reg load_bf16(const std::uint16_t* p) {
    return widen_bf16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  static reg load_bf16_partial(const std::uint16_t* p, int n) {
    alignas(16) std::uint16_t lanes[width] = {};
    for (int i = 0; i < n; ++i) lanes[i] = p[i];
    return widen_bf16(_mm_load_si128(reinterpret_cast<const __m128i*>(lanes)));
  }
  static reg widen_bf16(__m128i h) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
  }
  // 2 x width bf16 from p as they lie, a pair to a lane (the first element in the lower half);
  // the first n only (n < 2 x width), the rest zero.
  static reg load_pairs(const std::uint16_t* p) {
    return _mm256_castsi256_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  static reg load_pairs_partial(const std::uint16_t* p, int n) {
    alignas(32) std::uint16_t elements[2 * width] = {};
    for (int i = 0; i < n; ++i) elements[i] = p[i];
    return _mm256_load_ps(reinterpret_cast<const float*>(elements));
  }
  // A register of pairs as the floats of its even (lower) and odd (upper) halves, widened
  // exactly: a shift and a mask, where load_bf16's widening is a shuffle.
  static void widen_pairs(reg pairs, reg& even, reg& odd) {
    const __m256i bits = _mm256_castps_si256(pairs);
    even = _mm256_castsi256_ps(_mm256_slli_epi32(bits, 16));
    odd = _mm256_castsi256_ps(
        _mm256_and_si256(bits, _mm256_set1_epi32(static_cast<int>(0xFFFF0000u))));
  }
  // The lanes of even and odd interleaved: rows[0] = even[0], odd[0], even[1], odd[1], ...,
  // rows[1] the same from lane 4 on (the inverse of widen_pairs' split).
  static void interleave(reg even, reg odd, reg (&rows)[2]) {
    const reg low = _mm256_unpacklo_ps(even, odd), high = _mm256_unpackhi_ps(even, odd);
    rows[0] = _mm256_permute2f128_ps(low, high, 0x20);
    rows[1] = _mm256_permute2f128_ps(low, high, 0x31);
  }
  // Each lane rounded to bf16 (nearest, ties to even; a NaN stays a NaN, made quiet), the first
  // n stored.
  static void store_bf16_partial(std::uint16_t* p, reg a, int n) {
    const __m256i bits = _mm256_castps_si256(a);
    const __m256i high = _mm256_srli_epi32(bits, 16);
    const __m256i bias =
        _mm256_add_epi32(_mm256_and_si256(high, _mm256_set1_epi32(1)), _mm256_set1_epi32(0x7fff));
    const __m256i rounded = _mm256_srli_epi32(_mm256_add_epi32(bits, bias), 16);
    const __m256i quiet = _mm256_or_si256(high, _mm256_set1_epi32(0x40));
    const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(a, a, _CMP_UNORD_Q));
    const __m256i h = _mm256_blendv_epi8(rounded, quiet, nan);
    // Every lane is below 2^16: the unsigned saturation of the pack changes none.
    const __m128i packed =
        _mm_packus_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    if (n == width) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p), packed);
      return;
    }
    alignas(16) std::uint16_t lanes[width];
    _mm_store_si128(reinterpret_cast<__m128i*>(lanes), packed);
    for (int i = 0; i < n; ++i) p[i] = lanes[i];
  }
  // The floats of p's first n int32 (rounded to nearest), 0 in the other lanes.
  static reg convert_int32_partial(const std::int32_t* p, int n) {
    return _mm256_cvtepi32_ps(_mm256_maskload_epi32(p, avx2_detail::first_lanes32(n)));
  }
  // a * 2^n for integral n in [-126, 127]: n + 127 is written straight into a float's exponent
  // field. Added to 1.5 x 2^23 (whose ulp is 1), n + 127 lands in the low bits of the sum's
  // fraction, and the shift by 23 that moves it into the exponent field shifts all the rest
  // out: one instruction less than a conversion to integers.
  static reg scale_by_pow2(reg a, reg n) {
    const __m256i biased = _mm256_castps_si256(_mm256_add_ps(n, _mm256_set1_ps(0x1.8p23f + 127)));
    return _mm256_mul_ps(a, _mm256_castsi256_ps(_mm256_slli_epi32(biased, 23)));
  }
  // dst[r * dst_stride + c] = src[c * src_stride + r] for r, c < 4.
  static void transpose_4x4(const float* src, std::int64_t src_stride, float* dst,
                            std::int64_t dst_stride) {
    x86::transpose_4x4<Avx2>(src, src_stride, dst, dst_stride);
  }
  static float reduce_add(reg a) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
  }
  // Lane i = the sum of acc[i]'s lanes: 8 sums in 21 instructions, a tree that adds interleaved
  // pairs of registers (reduce_add takes 6 per sum).
  static reg transpose_add(const reg (&acc)[width]) {
    // Per 128-bit half: [a0 + a2, b0 + b2, a1 + a3, b1 + b3] for acc pair (a, b).
    reg pairs[4];
    for (int i = 0; i < 4; ++i)
      pairs[i] = _mm256_add_ps(_mm256_unpacklo_ps(acc[2 * i], acc[2 * i + 1]),
                               _mm256_unpackhi_ps(acc[2 * i], acc[2 * i + 1]));
    // Per half: that half's sum for each of four registers.
    reg quads[2];
    for (int i = 0; i < 2; ++i) {
      const reg x = pairs[2 * i], y = pairs[2 * i + 1];
      quads[i] = _mm256_add_ps(_mm256_shuffle_ps(x, y, _MM_SHUFFLE(1, 0, 1, 0)),
                               _mm256_shuffle_ps(x, y, _MM_SHUFFLE(3, 2, 3, 2)));
    }
    return _mm256_add_ps(_mm256_permute2f128_ps(quads[0], quads[1], 0x20),   // low halves
                         _mm256_permute2f128_ps(quads[0], quads[1], 0x31));  // high halves
  }
};

template <>
struct Avx2<double> {
  using scalar = double;
  using reg = __m256d;
  static constexpr int width = 4;
  static constexpr const char* name = "avx2";

  static reg zero() { return _mm256_setzero_pd(); }
  static reg set1(double x) { return _mm256_set1_pd(x); }
  static reg broadcast(const double* p) { return _mm256_broadcast_sd(p); }
  static reg load(const double* p) { return _mm256_loadu_pd(p); }
  static void store(double* p, reg a) { _mm256_storeu_pd(p, a); }
  static reg load_partial(const double* p, int n) {
    return _mm256_maskload_pd(p, avx2_detail::first_lanes64(n));
  }
  static void store_partial(double* p, reg a, int n) {
    _mm256_maskstore_pd(p, avx2_detail::first_lanes64(n), a);
  }
  static constexpr bool fused_fma = true;  // fma rounds once
  static reg fma(reg a, reg b, reg c) { return _mm256_fmadd_pd(a, b, c); }
  static reg mul(reg a, reg b) { return _mm256_mul_pd(a, b); }
  static reg add(reg a, reg b) { return _mm256_add_pd(a, b); }
  // dst[r * dst_stride + c] = src[c * src_stride + r] for r, c < 4.
  static void transpose_4x4(const double* src, std::int64_t src_stride, double* dst,
                            std::int64_t dst_stride) {
    x86::transpose_4x4<Avx2>(src, src_stride, dst, dst_stride);
  }
  static double reduce_add(reg a) {
    __m128d s = _mm_add_pd(_mm256_castpd256_pd128(a), _mm256_extractf128_pd(a, 1));
    return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
  }
};

}  // namespace ridge::simd
