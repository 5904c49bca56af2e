// The int8 quads' packing step on x86 (SSE2, so every x86 ISA unit may include it): four depth
// steps of 16 rows of an operand whose rows are contiguous, as 16 quads.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace ridge::simd {

// Columns `column`, column + cs, + 2 cs, + 3 cs (16 rows each) to dst[0, 16): dst[i] holds row i
// of the four columns in its bytes, lowest first.
inline void store_x86_quad_rows(const std::int8_t* column, std::int64_t cs, std::int32_t* dst) {
  const auto load16 = [](const std::int8_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  };
  const auto store16 = [](std::int32_t* p, __m128i a) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), a);
  };
  const __m128i c0 = load16(column), c1 = load16(column + cs);
  const __m128i c2 = load16(column + 2 * cs), c3 = load16(column + 3 * cs);
  const __m128i low01 = _mm_unpacklo_epi8(c0, c1), high01 = _mm_unpackhi_epi8(c0, c1);
  const __m128i low23 = _mm_unpacklo_epi8(c2, c3), high23 = _mm_unpackhi_epi8(c2, c3);
  store16(dst, _mm_unpacklo_epi16(low01, low23));         // rows 0-3
  store16(dst + 4, _mm_unpackhi_epi16(low01, low23));     // rows 4-7
  store16(dst + 8, _mm_unpacklo_epi16(high01, high23));   // rows 8-11
  store16(dst + 12, _mm_unpackhi_epi16(high01, high23));  // rows 12-15
}

}  // namespace ridge::simd
