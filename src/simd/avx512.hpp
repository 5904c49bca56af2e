// Vector traits for AVX-512 F (512-bit, 32 registers, lane masks). Include only from sources
// compiled with the AVX-512 flags (cmake/isa_flags.cmake).
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "simd/x86_transpose.hpp"

namespace ridge::simd {

template <class T>
struct Avx512;

template <>
struct Avx512<float> {
  using scalar = float;
  using reg = __m512;
  static constexpr int width = 16;
  static constexpr const char* name = "avx512";

  static __mmask16 first_lanes(int n) { return static_cast<__mmask16>((1u << n) - 1); }

  static reg zero() { return _mm512_setzero_ps(); }
  static reg set1(float x) { return _mm512_set1_ps(x); }
  static reg broadcast(const float* p) { return _mm512_set1_ps(*p); }
  static reg load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, reg a) { _mm512_storeu_ps(p, a); }
  // Masked lanes are neither read nor written (no fault past the end of an array).
  static reg load_partial(const float* p, int n) { return _mm512_maskz_loadu_ps(first_lanes(n), p); }
  static void store_partial(float* p, reg a, int n) { _mm512_mask_storeu_ps(p, first_lanes(n), a); }
  static reg fma(reg a, reg b, reg c) { return _mm512_fmadd_ps(a, b, c); }
  static reg mul(reg a, reg b) { return _mm512_mul_ps(a, b); }
  static reg add(reg a, reg b) { return _mm512_add_ps(a, b); }
  // Through memory: GCC 12's _mm512_reduce_add_* trips -Wuninitialized (GCC bug 105593), and
  // no kernel reduces in its inner loop.
  // dst[r * dst_stride + c] = src[c * src_stride + r] for r, c < 4.
  static void transpose_4x4(const float* src, std::int64_t src_stride, float* dst,
                            std::int64_t dst_stride) {
    x86::transpose_4x4<Avx512>(src, src_stride, dst, dst_stride);
  }
  static float reduce_add(reg a) {
    alignas(64) float lanes[width];
    _mm512_store_ps(lanes, a);
    float sum = 0;
    for (float x : lanes) sum += x;
    return sum;
  }
};

template <>
struct Avx512<double> {
  using scalar = double;
  using reg = __m512d;
  static constexpr int width = 8;
  static constexpr const char* name = "avx512";

  static __mmask8 first_lanes(int n) { return static_cast<__mmask8>((1u << n) - 1); }

  static reg zero() { return _mm512_setzero_pd(); }
  static reg set1(double x) { return _mm512_set1_pd(x); }
  static reg broadcast(const double* p) { return _mm512_set1_pd(*p); }
  static reg load(const double* p) { return _mm512_loadu_pd(p); }
  static void store(double* p, reg a) { _mm512_storeu_pd(p, a); }
  static reg load_partial(const double* p, int n) { return _mm512_maskz_loadu_pd(first_lanes(n), p); }
  static void store_partial(double* p, reg a, int n) { _mm512_mask_storeu_pd(p, first_lanes(n), a); }
  static reg fma(reg a, reg b, reg c) { return _mm512_fmadd_pd(a, b, c); }
  static reg mul(reg a, reg b) { return _mm512_mul_pd(a, b); }
  static reg add(reg a, reg b) { return _mm512_add_pd(a, b); }
  // dst[r * dst_stride + c] = src[c * src_stride + r] for r, c < 4.
  static void transpose_4x4(const double* src, std::int64_t src_stride, double* dst,
                            std::int64_t dst_stride) {
    x86::transpose_4x4<Avx512>(src, src_stride, dst, dst_stride);
  }
  static double reduce_add(reg a) {
    alignas(64) double lanes[width];
    _mm512_store_pd(lanes, a);
    double sum = 0;
    for (double x : lanes) sum += x;
    return sum;
  }
};

}  // namespace ridge::simd
