// Vector traits for int8 quads on AVX-VNNI: the AVX512_VNNI quads (simd/avx512_int8_quads.hpp)
// on eight 32-bit lanes, VPDPBUSD in its VEX form on 256-bit registers, which CPUs without
// AVX-512 have (Intel's since Alder Lake, AMD's since Zen 5). Four depth steps a lane in one
// instruction, where AVX2's int16 pairs (simd/avx2_int16_pairs.hpp) take two instructions for
// two. The same packing, tile loops and zero-point correction as the AVX-512 quads.
// Include only from sources compiled with the AVX-VNNI flags (cmake/isa_flags.cmake).
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "simd/avx2.hpp"
#include "simd/avx2_int16_pairs.hpp"
#include "simd/x86_quad_rows.hpp"

namespace ridge::simd {

struct Avx2Int8Quads : Avx2Int32 {
  static constexpr const char* name = "avx2_vnni";
  // The traits of the int32 results (the micro-kernel's C update: kernels::OutTraits).
  using Out = Avx2Int32;
  // The float traits of the same ISA: the dequantising epilogue's (kernels::Epilogue::scale).
  using Float = Avx2<float>;
  static constexpr int depth_group = 4;  // inner-dimension steps per lane
  // c + the four products of b's unsigned bytes by a's signed ones in each lane, modulo 2^32. In
  // inline assembly for the reason the AVX-512 quads give; {vex} (written %{vex%}) picks the
  // AVX-VNNI encoding, "x" the 16 registers it can name.
  static reg fma(reg a, reg b, reg c) {
    asm("%{vex%} vpdpbusd %[s], %[u], %[acc]" : [acc] "+x"(c) : [u] "x"(b), [s] "x"(a));
    return c;
  }

  // 8 quads from bytes as they lie, at any address; and from the first `bytes` (at most 31) of
  // them, the others zero and not read.
  static reg load_quads(const void* p) {
    return _mm256_loadu_si256(static_cast<const __m256i*>(p));
  }
  static reg load_quads_partial(const void* p, int bytes) {
    alignas(32) std::int8_t quads[32] = {};
    std::memcpy(quads, p, static_cast<std::size_t>(bytes));
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(quads));
  }

  // Each lane's four signed bytes summed into acc's lane (a packed A's row sums).
  static reg add_signed_quads(reg acc, reg quads) {
    return _mm256_dpbusd_avx_epi32(acc, _mm256_set1_epi8(1), quads);
  }

  // Four depth steps of 16 rows of an operand whose rows are contiguous, columns cs apart, as 16
  // quads at dst.
  static void store_quad_rows(const std::int8_t* column, std::int64_t cs, std::int32_t* dst) {
    store_x86_quad_rows(column, cs, dst);
  }
};

}  // namespace ridge::simd
