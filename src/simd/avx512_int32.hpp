// int32 lanes on AVX-512: the accumulators and C of the int8 kernels (simd/avx512_int16_pairs.hpp,
// simd/avx512_int8_quads.hpp). Include only from sources compiled with the AVX-512 flags
// (cmake/isa_flags.cmake).
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace ridge::simd {

// int32 lanes: the accumulators and C. Additions wrap modulo 2^32, as the hardware does.
struct Avx512Int32 {
  using scalar = std::int32_t;
  using reg = __m512i;
  static constexpr int width = 16;
  static constexpr const char* name = "avx512";

  static __mmask16 first_lanes(int n) { return static_cast<__mmask16>((1u << n) - 1); }

  static reg zero() { return _mm512_setzero_si512(); }
  static reg set1(std::int32_t x) { return _mm512_set1_epi32(x); }
  static reg broadcast(const std::int32_t* p) { return _mm512_set1_epi32(*p); }
  static reg load(const std::int32_t* p) { return _mm512_loadu_si512(p); }
  static void store(std::int32_t* p, reg a) { _mm512_storeu_si512(p, a); }
  // Masked lanes are neither read nor written.
  static reg load_partial(const std::int32_t* p, int n) {
    return _mm512_maskz_loadu_epi32(first_lanes(n), p);
  }
  static void store_partial(std::int32_t* p, reg a, int n) {
    _mm512_mask_storeu_epi32(p, first_lanes(n), a);
  }
  static reg add(reg a, reg b) { return _mm512_add_epi32(a, b); }
  static reg mul(reg a, reg b) { return _mm512_mullo_epi32(a, b); }
  static reg fma(reg a, reg b, reg c) { return add(mul(a, b), c); }

  // The sums of the lanes of four registers, modulo 2^32: unpacking pairs of them and adding
  // leaves each 128-bit block with its part of the four sums, then the blocks are added, 13
  // instructions in all (one register's sum through memory took a store and 16 loads and adds).
  // Zero-masked forms with every lane set: GCC 12 implements the unmasked ones with an
  // uninitialised operand (bug 105593), which -Werror rejects.
  static void sum_lanes(const reg (&v)[4], std::uint32_t (&sums)[4]) {
    constexpr __mmask16 all = 0xffff;
    constexpr __mmask8 all_pairs = 0xff;
    const __m512i ab = _mm512_add_epi32(_mm512_maskz_unpacklo_epi32(all, v[0], v[1]),
                                        _mm512_maskz_unpackhi_epi32(all, v[0], v[1]));
    const __m512i cd = _mm512_add_epi32(_mm512_maskz_unpacklo_epi32(all, v[2], v[3]),
                                        _mm512_maskz_unpackhi_epi32(all, v[2], v[3]));
    const __m512i blocks = _mm512_add_epi32(_mm512_maskz_unpacklo_epi64(all_pairs, ab, cd),
                                            _mm512_maskz_unpackhi_epi64(all_pairs, ab, cd));
    const __m256i halves = _mm256_add_epi32(_mm512_maskz_extracti64x4_epi64(0xf, blocks, 0),
                                            _mm512_maskz_extracti64x4_epi64(0xf, blocks, 1));
    _mm_storeu_si128(
        reinterpret_cast<__m128i*>(sums),
        _mm_add_epi32(_mm256_castsi256_si128(halves), _mm256_extracti128_si256(halves, 1)));
  }
};

}  // namespace ridge::simd
