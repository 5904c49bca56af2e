// Vector traits for bf16 pairs on AVX512_BF16: the AVX-512 float traits, except that a
// register's 32-bit lanes each hold two bf16 numbers (the lower half first) and fma(a, b, c)
// adds both lane products to c's float lane: VDPBF16PS, (c + a.hi * b.hi) + a.lo * b.lo, each
// addition rounded (measured on Zen 5: two FMAs in that order, 200000 random cases), with two
// of the products a float FMA does per lane. The GEMM micro-kernel (gemm/microkernel.hpp)
// instantiated on these traits computes A B over pairs of the inner dimension: with A packed
// [k / 2][MR] and B [k / 2][NR] in pairs (kernels/pack_pairs.hpp), its kc is the pair count and
// C comes out in float.
// The products are exact (8-bit by 8-bit significands) and summed in float; VDPBF16PS reads
// bf16 subnormals as zero and writes float subnormals as zero, whatever MXCSR says.
// Include only from sources compiled with the AVX512_BF16 flags (cmake/isa_flags.cmake).
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "simd/avx512.hpp"

namespace ridge::simd {

struct Avx512Bf16Pairs;

// Avx512Bf16Pairs (below) on 256-bit vectors (AVX-512 VL), for the tiles of at most 8 rows, as
// Avx512Half is for floats (gemm/loops.hpp). Its broadcast is the float traits' own: VBROADCASTSS
// from memory copies the pair's 32 bits as they are.
struct Avx512Bf16PairsHalf : Avx512Half<float> {
  using Full = Avx512Bf16Pairs;
  using Out = Avx512Half<float>;
  static constexpr int depth_group = 2;
  static reg fma(reg a, reg b, reg c) {
    return _mm256_dpbf16_ps(c, reinterpret_cast<__m256bh>(a), reinterpret_cast<__m256bh>(b));
  }
};

struct Avx512Bf16Pairs : Avx512<float> {
  static constexpr const char* name = "avx512_bf16";
  // The traits of the float results (the micro-kernel's alpha and beta: kernels::OutTraits).
  using Out = Avx512<float>;
  using Half = Avx512Bf16PairsHalf;
  static constexpr int depth_group = 2;  // inner-dimension steps per lane

  // Two registers of pairs (even[i], odd[i]), rows i < 32 in order: two depth steps of 32 rows
  // of an operand whose rows are contiguous, as kernels/pack_pairs.hpp packs them. The zero
  // point is always 0 for bf16.
  static void pair_rows(const std::uint16_t* even, const std::uint16_t* odd, std::int32_t,
                        reg (&rows)[2]) {
    __m512i pairs[2];
    interleave_16(_mm512_loadu_si512(even), _mm512_loadu_si512(odd), pairs);
    rows[0] = _mm512_castsi512_ps(pairs[0]);
    rows[1] = _mm512_castsi512_ps(pairs[1]);
  }

  // The pair at p (stored as 32 bits in a float-sized slot) in every lane.
  static reg broadcast(const float* p) {
    std::uint32_t pair;
    std::memcpy(&pair, p, sizeof(pair));
    return _mm512_castsi512_ps(_mm512_set1_epi32(static_cast<int>(pair)));
  }
  static reg fma(reg a, reg b, reg c) {
    return _mm512_dpbf16_ps(c, reinterpret_cast<__m512bh>(a), reinterpret_cast<__m512bh>(b));
  }

  // Two bf16 bit patterns as one pair lane: `low` is the pair's first element.
  static std::uint32_t pair(std::uint16_t low, std::uint16_t high) {
    return static_cast<std::uint32_t>(low) | static_cast<std::uint32_t>(high) << 16;
  }
};

}  // namespace ridge::simd
