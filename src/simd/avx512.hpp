// Vector traits for AVX-512 F (512-bit, 32 registers, lane masks). Include only from sources
// compiled with the AVX-512 flags (cmake/isa_flags.cmake).
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "simd/avx2.hpp"
#include "simd/x86_transpose.hpp"

namespace ridge::simd {

// The 16-bit lanes of e and o interleaved, as the traits on pairs pack two depth steps:
// out[0] = e[0], o[0], e[1], o[1], ... e[15], o[15]; out[1] the same from lane 16 on (VPERMT2W).
inline void interleave_16(__m512i e, __m512i o, __m512i (&out)[2]) {
  // Lane x of the result is lane low[x] of (e, o), whose lanes count e's 0-31 and o's 32-63.
  const __m512i low = _mm512_set_epi16(47, 15, 46, 14, 45, 13, 44, 12, 43, 11, 42, 10, 41, 9, 40, 8,
                                       39, 7, 38, 6, 37, 5, 36, 4, 35, 3, 34, 2, 33, 1, 32, 0);
  out[0] = _mm512_permutex2var_epi16(e, low, o);
  out[1] = _mm512_permutex2var_epi16(e, _mm512_add_epi16(low, _mm512_set1_epi16(16)), o);
}

// The 256-bit vectors of an AVX-512 CPU, for tiles of C at most half a 512-bit vector tall
// (Avx512<T>::Half, gemm/loops.hpp): AVX2's traits with AVX-512 VL's masked loads and stores for
// the partial vectors (AVX2's VMASKMOVPS is microcoded on AMD's cores). Where the FMA units are
// 256 bits wide, as on Zen 4 (the probe: 2.03 256-bit FMAs a cycle, 1.03 512-bit), a 256-bit FMA
// does the work of a 512-bit one with half its lanes idle in half the time.
template <class T>
struct Avx512;
template <class T>
struct Avx512Half;
template <>
struct Avx512Half<float> : Avx2<float> {
  using Full = Avx512<float>;  // the traits it halves (not those derived from them)
  static reg load_partial(const float* p, int n) {
    return _mm256_maskz_loadu_ps(static_cast<__mmask8>((1u << n) - 1), p);
  }
  static void store_partial(float* p, reg a, int n) {
    _mm256_mask_storeu_ps(p, static_cast<__mmask8>((1u << n) - 1), a);
  }
};
template <>
struct Avx512Half<double> : Avx2<double> {
  using Full = Avx512<double>;
  static reg load_partial(const double* p, int n) {
    return _mm256_maskz_loadu_pd(static_cast<__mmask8>((1u << n) - 1), p);
  }
  static void store_partial(double* p, reg a, int n) {
    _mm256_mask_storeu_pd(p, static_cast<__mmask8>((1u << n) - 1), a);
  }
};

template <>
struct Avx512<float> {
  using scalar = float;
  using reg = __m512;
  static constexpr int width = 16;
  using Half = Avx512Half<float>;
  static constexpr const char* name = "avx512";

  static __mmask16 first_lanes(int n) { return static_cast<__mmask16>((1u << n) - 1); }
  static constexpr __mmask16 all_lanes = 0xffff;

  static reg zero() { return _mm512_setzero_ps(); }
  static reg set1(float x) { return _mm512_set1_ps(x); }
  static reg broadcast(const float* p) { return _mm512_set1_ps(*p); }
  static reg load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, reg a) { _mm512_storeu_ps(p, a); }
  // Masked lanes are neither read nor written (no fault past the end of an array).
  static reg load_partial(const float* p, int n) { return _mm512_maskz_loadu_ps(first_lanes(n), p); }
  static void store_partial(float* p, reg a, int n) { _mm512_mask_storeu_ps(p, first_lanes(n), a); }
  static constexpr bool fused_fma = true;  // fma rounds once
  static reg fma(reg a, reg b, reg c) { return _mm512_fmadd_ps(a, b, c); }
  static reg fms(reg a, reg b, reg c) { return _mm512_fmsub_ps(a, b, c); }  // a b - c
  static reg mul(reg a, reg b) { return _mm512_mul_ps(a, b); }
  static reg add(reg a, reg b) { return _mm512_add_ps(a, b); }
  static reg sub(reg a, reg b) { return _mm512_sub_ps(a, b); }
  // These four and reduce_add use the zero-masked forms with every lane set: GCC 12 implements
  // the unmasked ones as masked ones merging into "undefined" lanes, which it then reports as
  // used uninitialized (GCC bug 105593). The instructions are the same.
  // max and min give b where the two are unordered (a NaN) or equal.
  static reg max(reg a, reg b) { return _mm512_maskz_max_ps(all_lanes, a, b); }
  static reg min(reg a, reg b) { return _mm512_maskz_min_ps(all_lanes, a, b); }
  // -|a|: the sign bit set (a NaN stays one).
  static reg minus_magnitude(reg a) {
    return _mm512_castsi512_ps(
        _mm512_maskz_or_epi32(all_lanes, _mm512_castps_si512(a), _mm512_set1_epi32(INT32_MIN)));
  }
  static reg floor(reg a) {
    return _mm512_maskz_roundscale_ps(all_lanes, a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  }
  static reg div(reg a, reg b) { return _mm512_div_ps(a, b); }
  // a in the lanes whose `sign` has its sign bit set, b in the others.
  static reg blend_by_sign(reg sign, reg a, reg b) {
    const __mmask16 negative =
        _mm512_cmplt_epi32_mask(_mm512_castps_si512(sign), _mm512_setzero_si512());
    return _mm512_mask_blend_ps(negative, b, a);
  }
  // Whether a < b in any lane (false where either is a NaN).
  static bool any_less(reg a, reg b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ) != 0; }
  // bf16 (a float's upper half) widened exactly: zero-extend each 16-bit lane and shift it up.
  static reg load_bf16(const std::uint16_t* p) {
    return widen_bf16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  static reg load_bf16_partial(const std::uint16_t* p, int n) {
    return widen_bf16(_mm256_maskz_loadu_epi16(first_lanes(n), p));
  }
  static reg widen_bf16(__m256i h) {
    // Zero-masked forms, for GCC bug 105593 as above.
    return _mm512_castsi512_ps(
        _mm512_maskz_slli_epi32(all_lanes, _mm512_maskz_cvtepu16_epi32(all_lanes, h), 16));
  }
  // 2 x width bf16 from p as they lie, a pair to a lane (the first element in the lower half);
  // the first n only (n < 2 x width), the rest zero.
  static reg load_pairs(const std::uint16_t* p) {
    return _mm512_castsi512_ps(_mm512_loadu_si512(p));
  }
  static reg load_pairs_partial(const std::uint16_t* p, int n) {
    return _mm512_castsi512_ps(
        _mm512_maskz_loadu_epi16(static_cast<__mmask32>((1ull << n) - 1), p));
  }
  // A register of pairs as the floats of its even (lower) and odd (upper) halves, widened
  // exactly (a float's upper 16 bits are its bf16): a shift and a mask, where load_bf16's
  // widening is a shuffle across the register.
  static void widen_pairs(reg pairs, reg& even, reg& odd) {
    const __m512i bits = _mm512_castps_si512(pairs);
    even = _mm512_castsi512_ps(_mm512_maskz_slli_epi32(all_lanes, bits, 16));  // GCC bug 105593
    odd = _mm512_castsi512_ps(
        _mm512_and_si512(bits, _mm512_set1_epi32(static_cast<int>(0xFFFF0000u))));
  }
  // The lanes of even and odd interleaved: rows[0] = even[0], odd[0], even[1], odd[1], ...,
  // rows[1] the same from lane 8 on (the inverse of widen_pairs' split; VPERMT2PS).
  static void interleave(reg even, reg odd, reg (&rows)[2]) {
    // Lane x of the result is lane low[x] of (even, odd), whose lanes count even's 0-15 and
    // odd's 16-31.
    const __m512i low = _mm512_set_epi32(23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    rows[0] = _mm512_permutex2var_ps(even, low, odd);
    rows[1] = _mm512_permutex2var_ps(even, _mm512_add_epi32(low, _mm512_set1_epi32(8)), odd);
  }
  // a * 2^n for any integral n, rounded once (VSCALEFPS: one instruction).
  static reg scale_by_pow2(reg a, reg n) { return _mm512_maskz_scalef_ps(all_lanes, a, n); }
  // a 2^n rounded once (n integral, a 2^n not above the float range), without an instruction
  // whose result is subnormal, which takes a microcode assist on Intel's cores (FTZ off): where
  // |a| 2^n is below 2^-126 it is built from its bits, an integer count of 2^-149 with a's sign;
  // VSCALEFPS scales the other lanes only, the subnormal ones masked off (a masked-off lane takes
  // no assist). Measured on the Xeon guest, one lane of 16 scaled to a subnormal: 3.45 ns an
  // element, 0.035 with that lane masked off.
  static reg scale_by_pow2_exact(reg a, reg n) {
    const __m512i sign_bit = _mm512_set1_epi32(INT32_MIN);
    const reg magnitude =
        _mm512_castsi512_ps(_mm512_maskz_andnot_epi32(all_lanes, sign_bit, _mm512_castps_si512(a)));
    const reg units = scale_by_pow2(magnitude, _mm512_add_ps(n, _mm512_set1_ps(149.0f)));
    // Subnormal (or zero) where units < 2^23; a NaN is not.
    const __mmask16 subnormal = _mm512_cmp_ps_mask(units, _mm512_set1_ps(0x1p23f), _CMP_LT_OQ);
    const __m512i bits = _mm512_maskz_cvtps_epi32(subnormal, units);
    // bits | (a & sign_bit): one VPTERNLOGD.
    const __m512i tiny = _mm512_ternarylogic_epi32(bits, _mm512_castps_si512(a), sign_bit, 0xf8);
    return _mm512_mask_scalef_ps(_mm512_castsi512_ps(tiny), static_cast<__mmask16>(~subnormal), a,
                                 n);
  }
  // Each lane rounded to bf16 (nearest, ties to even; a NaN stays a NaN, made quiet), the first
  // n stored (zero-masked forms, for GCC bug 105593 as above).
  static void store_bf16_partial(std::uint16_t* p, reg a, int n) {
    const __m512i bits = _mm512_castps_si512(a);
    const __m512i high = _mm512_maskz_srli_epi32(all_lanes, bits, 16);
    const __m512i bias = _mm512_maskz_add_epi32(
        all_lanes, _mm512_maskz_and_epi32(all_lanes, high, _mm512_set1_epi32(1)),
        _mm512_set1_epi32(0x7fff));
    const __m512i rounded =
        _mm512_maskz_srli_epi32(all_lanes, _mm512_maskz_add_epi32(all_lanes, bits, bias), 16);
    const __m512i quiet = _mm512_maskz_or_epi32(all_lanes, high, _mm512_set1_epi32(0x40));
    const __mmask16 nan = _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q);
    _mm512_mask_cvtepi32_storeu_epi16(p, first_lanes(n),
                                      _mm512_mask_mov_epi32(rounded, nan, quiet));
  }
  // The floats of p's first n int32 (rounded to nearest), 0 in the other lanes.
  static reg convert_int32_partial(const std::int32_t* p, int n) {
    return _mm512_maskz_cvtepi32_ps(all_lanes, _mm512_maskz_loadu_epi32(first_lanes(n), p));
  }
  // dst[r * dst_stride + c] = src[c * src_stride + r] for r, c < 4.
  static void transpose_4x4(const float* src, std::int64_t src_stride, float* dst,
                            std::int64_t dst_stride) {
    x86::transpose_4x4<Avx512>(src, src_stride, dst, dst_stride);
  }
  // By halves, as a tree, within 512-bit registers (zero-masked shuffles, as above; so not
  // _mm512_reduce_add_ps either): the dot kernel reduces once per row of A, which for GEMV on a
  // cached 128 x 128 A is every 8 vectors.
  static float reduce_add(reg a) {
    a = _mm512_add_ps(a, _mm512_maskz_shuffle_f32x4(all_lanes, a, a, _MM_SHUFFLE(1, 0, 3, 2)));
    a = _mm512_add_ps(a, _mm512_maskz_shuffle_f32x4(all_lanes, a, a, _MM_SHUFFLE(2, 3, 0, 1)));
    a = _mm512_add_ps(a, _mm512_maskz_permute_ps(all_lanes, a, _MM_SHUFFLE(1, 0, 3, 2)));
    a = _mm512_add_ps(a, _mm512_maskz_permute_ps(all_lanes, a, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm512_cvtss_f32(a);
  }
  // Lane i = the sum of acc[i]'s lanes: 16 sums in 45 instructions, a tree that adds
  // interleaved pairs of registers (reduce_add takes 8 per sum). Zero-masked shuffles, as above.
  static reg transpose_add(const reg (&acc)[width]) {
    // Per 128-bit chunk: [a0 + a2, b0 + b2, a1 + a3, b1 + b3] for acc pair (a, b).
    reg pairs[8];
    for (int i = 0; i < 8; ++i)
      pairs[i] = _mm512_add_ps(_mm512_maskz_unpacklo_ps(all_lanes, acc[2 * i], acc[2 * i + 1]),
                               _mm512_maskz_unpackhi_ps(all_lanes, acc[2 * i], acc[2 * i + 1]));
    // Per chunk: that chunk's sum for each of four registers.
    reg quads[4];
    for (int i = 0; i < 4; ++i) {
      const reg x = pairs[2 * i], y = pairs[2 * i + 1];
      quads[i] = _mm512_add_ps(_mm512_maskz_shuffle_ps(all_lanes, x, y, _MM_SHUFFLE(1, 0, 1, 0)),
                               _mm512_maskz_shuffle_ps(all_lanes, x, y, _MM_SHUFFLE(3, 2, 3, 2)));
    }
    // Chunks 0 + 1 and 2 + 3 of two quads; then of the two halves: chunk k sums registers 4k..4k+3.
    const auto fold = [](reg x, reg y) {
      return _mm512_add_ps(_mm512_maskz_shuffle_f32x4(all_lanes, x, y, 0x88),   // chunks 0, 2
                           _mm512_maskz_shuffle_f32x4(all_lanes, x, y, 0xdd));  // chunks 1, 3
    };
    return fold(fold(quads[0], quads[1]), fold(quads[2], quads[3]));
  }
};

template <>
struct Avx512<double> {
  using scalar = double;
  using reg = __m512d;
  static constexpr int width = 8;
  using Half = Avx512Half<double>;
  static constexpr const char* name = "avx512";

  static __mmask8 first_lanes(int n) { return static_cast<__mmask8>((1u << n) - 1); }

  static reg zero() { return _mm512_setzero_pd(); }
  static reg set1(double x) { return _mm512_set1_pd(x); }
  static reg broadcast(const double* p) { return _mm512_set1_pd(*p); }
  static reg load(const double* p) { return _mm512_loadu_pd(p); }
  static void store(double* p, reg a) { _mm512_storeu_pd(p, a); }
  static reg load_partial(const double* p, int n) { return _mm512_maskz_loadu_pd(first_lanes(n), p); }
  static void store_partial(double* p, reg a, int n) { _mm512_mask_storeu_pd(p, first_lanes(n), a); }
  static constexpr bool fused_fma = true;  // fma rounds once
  static reg fma(reg a, reg b, reg c) { return _mm512_fmadd_pd(a, b, c); }
  static reg mul(reg a, reg b) { return _mm512_mul_pd(a, b); }
  static reg add(reg a, reg b) { return _mm512_add_pd(a, b); }
  // dst[r * dst_stride + c] = src[c * src_stride + r] for r, c < 4.
  static void transpose_4x4(const double* src, std::int64_t src_stride, double* dst,
                            std::int64_t dst_stride) {
    x86::transpose_4x4<Avx512>(src, src_stride, dst, dst_stride);
  }
  // As Avx512<float>::reduce_add.
  static double reduce_add(reg a) {
    constexpr __mmask8 all = 0xff;
    a = _mm512_add_pd(a, _mm512_maskz_shuffle_f64x2(all, a, a, _MM_SHUFFLE(1, 0, 3, 2)));
    a = _mm512_add_pd(a, _mm512_maskz_shuffle_f64x2(all, a, a, _MM_SHUFFLE(2, 3, 0, 1)));
    a = _mm512_add_pd(a, _mm512_maskz_permute_pd(all, a, 0x55));  // swap within 128-bit lanes
    return _mm512_cvtsd_f64(a);
  }
};

}  // namespace ridge::simd
