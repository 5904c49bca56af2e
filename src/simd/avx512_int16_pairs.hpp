// Vector traits for int16 pairs on AVX-512 BW: Avx2Int16Pairs's layout and arithmetic
// (simd/avx2_int16_pairs.hpp: VPMADDWD, then VPADDD, exact for every operand the int8 packing
// makes) on sixteen 32-bit lanes, for AVX-512 CPUs without AVX512_VNNI, and the one-column
// product everywhere on AVX-512. Include only from sources compiled with the AVX-512 flags
// (cmake/isa_flags.cmake).
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "simd/avx512.hpp"
#include "simd/avx512_int32.hpp"

namespace ridge::simd {

struct Avx512Int16Pairs : Avx512Int32 {
  // The traits of the int32 results (the micro-kernel's C update: kernels::OutTraits).
  using Out = Avx512Int32;
  // The float traits of the same ISA: the dequantising epilogue's (kernels::Epilogue::scale).
  using Float = Avx512<float>;
  static constexpr int depth_group = 2;  // inner-dimension steps per lane
  static reg fma(reg a, reg b, reg c) { return _mm512_add_epi32(c, _mm512_madd_epi16(a, b)); }

  // Two registers of pairs (even[i] - zero, odd[i] - zero), rows i < 32 in order: two depth
  // steps of 32 rows of an operand whose rows are contiguous.
  template <class S>
  static void pair_rows(const S* even, const S* odd, std::int32_t zero, reg (&rows)[2]) {
    const __m512i z = _mm512_set1_epi16(static_cast<std::int16_t>(zero));
    const __m512i e = _mm512_sub_epi16(widen(even), z), o = _mm512_sub_epi16(widen(odd), z);
    interleave_16(e, o, rows);
  }

  // 32 int8 from p in order, less zero, as 16 pairs: two depth steps a lane of a contiguous row.
  static reg row_pairs(const std::int8_t* p, std::int32_t zero) {
    return _mm512_sub_epi16(widen(p), _mm512_set1_epi16(static_cast<std::int16_t>(zero)));
  }

 private:
  // 32 8-bit integers, sign- or zero-extended to int16.
  template <class S>
  static __m512i widen(const S* p) {
    const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    if constexpr (std::is_signed_v<S>) {
      return _mm512_cvtepi8_epi16(bytes);
    } else {
      return _mm512_cvtepu8_epi16(bytes);
    }
  }
};

}  // namespace ridge::simd
