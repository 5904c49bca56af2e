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
};

}  // namespace ridge::simd
