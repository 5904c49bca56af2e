// Vector traits for int16 pairs on AVX2: eight 32-bit lanes, each holding two int16 numbers (the
// lower half first) in the micro-kernel's operands and one int32 in its accumulators and C.
// fma(a, b, c) adds both lane products to c's lane: VPMADDWD, then VPADDD, exact for every
// operand the int8 packing makes (8-bit values less an 8-bit zero point, |x| <= 255: a pair's
// sum is at most 2 x 255^2, far inside int32). VPMADDUBSW, the usual u8 x s8 step without VNNI,
// would sum the pair in saturating int16 (255 x 127 x 2 does not fit). The GEMM micro-kernel on
// these traits runs over pairs of the inner dimension: A packed [k / 2][MR], B [k / 2][NR].
// Include only from sources compiled with the AVX2 flags (cmake/isa_flags.cmake).
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "simd/avx2.hpp"

namespace ridge::simd {

// int32 lanes: the accumulators and C. Additions wrap modulo 2^32, as the hardware does.
struct Avx2Int32 {
  using scalar = std::int32_t;
  using reg = __m256i;
  static constexpr int width = 8;
  static constexpr const char* name = "avx2";

  static reg zero() { return _mm256_setzero_si256(); }
  static reg set1(std::int32_t x) { return _mm256_set1_epi32(x); }
  static reg broadcast(const std::int32_t* p) { return _mm256_set1_epi32(*p); }
  static reg load(const std::int32_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static void store(std::int32_t* p, reg a) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), a);
  }
  static reg load_partial(const std::int32_t* p, int n) {
    return _mm256_maskload_epi32(reinterpret_cast<const int*>(p), first_lanes(n));
  }
  static void store_partial(std::int32_t* p, reg a, int n) {
    _mm256_maskstore_epi32(reinterpret_cast<int*>(p), first_lanes(n), a);
  }
  static reg add(reg a, reg b) { return _mm256_add_epi32(a, b); }
  static reg mul(reg a, reg b) { return _mm256_mullo_epi32(a, b); }
  static reg fma(reg a, reg b, reg c) { return add(mul(a, b), c); }
  // The sums of the lanes of four registers, modulo 2^32: two rounds of pairwise horizontal
  // additions leave each 128-bit half with its part of the four sums, then the halves are added.
  static void sum_lanes(const reg (&v)[4], std::uint32_t (&sums)[4]) {
    const __m256i quarters =
        _mm256_hadd_epi32(_mm256_hadd_epi32(v[0], v[1]), _mm256_hadd_epi32(v[2], v[3]));
    _mm_storeu_si128(
        reinterpret_cast<__m128i*>(sums),
        _mm_add_epi32(_mm256_castsi256_si128(quarters), _mm256_extracti128_si256(quarters, 1)));
  }

 private:
  static __m256i first_lanes(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
};

struct Avx2Int16Pairs : Avx2Int32 {
  // The traits of the int32 results (the micro-kernel's C update: kernels::OutTraits).
  using Out = Avx2Int32;
  // The float traits of the same ISA: the dequantising epilogue's (kernels::Epilogue::scale).
  using Float = Avx2<float>;
  static constexpr int depth_group = 2;  // inner-dimension steps per lane
  static reg fma(reg a, reg b, reg c) { return _mm256_add_epi32(c, _mm256_madd_epi16(a, b)); }

  // Two registers of pairs (even[i] - zero, odd[i] - zero), rows i < 16 in order: two depth
  // steps of 16 rows of an operand whose rows are contiguous.
  template <class S>
  static void pair_rows(const S* even, const S* odd, std::int32_t zero, reg (&rows)[2]) {
    const __m256i z = _mm256_set1_epi16(static_cast<std::int16_t>(zero));
    const __m256i e = _mm256_sub_epi16(widen(even), z), o = _mm256_sub_epi16(widen(odd), z);
    // Interleaved within each 128-bit half: rows 0-3 and 8-11, then 4-7 and 12-15.
    const __m256i low = _mm256_unpacklo_epi16(e, o), high = _mm256_unpackhi_epi16(e, o);
    rows[0] = _mm256_permute2x128_si256(low, high, 0x20);
    rows[1] = _mm256_permute2x128_si256(low, high, 0x31);
  }
  // 16 int8 from p in order, less zero, as 8 pairs: two depth steps a lane of a contiguous row.
  static reg row_pairs(const std::int8_t* p, std::int32_t zero) {
    return _mm256_sub_epi16(widen(p), _mm256_set1_epi16(static_cast<std::int16_t>(zero)));
  }

 private:
  // 16 8-bit integers, sign- or zero-extended to int16.
  template <class S>
  static __m256i widen(const S* p) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    if constexpr (std::is_signed_v<S>) {
      return _mm256_cvtepi8_epi16(bytes);
    } else {
      return _mm256_cvtepu8_epi16(bytes);
    }
  }
};

}  // namespace ridge::simd
