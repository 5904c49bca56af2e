// Vector traits for int8 quads on AVX512_VNNI: sixteen 32-bit lanes, each holding four 8-bit
// numbers (the first depth step in the lowest byte) in the micro-kernel's operands and one int32
// in its accumulators and C. fma(a, b, c) adds the lane's four products of b's unsigned bytes by
// a's signed ones to c's lane: VPDPBUSD, whose products (at most 255 x 128) and their sum are
// exact, and whose addition into c wraps modulo 2^32 (VPDPBUSDS would saturate instead): four
// depth steps a lane in one instruction, where the int16 pairs take two instructions for two.
// The GEMM micro-kernel on these traits runs over quads of the inner dimension: A packed
// [k / 4][MR] (signed), B [k / 4][NR] (unsigned); the zero points are not in the operands but in
// a correction from their sums (kernels/pack_quads.hpp).
// Include only from sources compiled with the AVX512_VNNI flags (cmake/isa_flags.cmake).
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "simd/avx512.hpp"
#include "simd/avx512_int16_pairs.hpp"
#include "simd/avx512_int32.hpp"
#include "simd/x86_quad_rows.hpp"

namespace ridge::simd {

// int16 pairs on AVX512_VNNI: Avx512Int16Pairs whose multiply-add is VPDPWSSD, one instruction
// where VPMADDWD and VPADDD are two (exact: no product or pair sum of the int8 operands, at most
// 255 x 255 twice, comes near the int32 range), for the few-row column sweep (kernels/
// pair_column_sweep.hpp). In inline assembly, as fma below.
struct Avx512VnniInt16Pairs : Avx512Int16Pairs {
  static reg fma(reg a, reg b, reg c) {
    asm("vpdpwssd %[b], %[a], %[acc]" : [acc] "+v"(c) : [a] "v"(a), [b] "v"(b));
    return c;
  }
};

struct Avx512Int8Quads : Avx512Int32 {
  static constexpr const char* name = "avx512_vnni";
  // The traits of the int32 results (the micro-kernel's C update: kernels::OutTraits).
  using Out = Avx512Int32;
  // The float traits of the same ISA: the dequantising epilogue's (kernels::Epilogue::scale).
  using Float = Avx512<float>;
  static constexpr int depth_group = 4;  // inner-dimension steps per lane
  using Pairs = Avx512VnniInt16Pairs;    // the column sweep's traits
  // In inline assembly, which ties the accumulator to its register: through the intrinsic,
  // GCC 12 copied accumulators between registers and spilled some to the stack inside the k
  // loop (u8s8 2048^3 on 1 thread, Zen 4: 328 GOP/s with the intrinsic, 390-412 so).
  static reg fma(reg a, reg b, reg c) {
    asm("vpdpbusd %[s], %[u], %[acc]" : [acc] "+v"(c) : [u] "v"(b), [s] "v"(a));
    return c;
  }

  // 16 quads from bytes as they lie, at any address; and from the first `bytes` (at most 63) of
  // them, the others zero and not read.
  static reg load_quads(const void* p) { return _mm512_loadu_si512(p); }
  static reg load_quads_partial(const void* p, int bytes) {
    return _mm512_maskz_loadu_epi8((__mmask64{1} << bytes) - 1, p);
  }

  // Each lane's four signed bytes summed into acc's lane (a packed A's row sums); and four
  // unsigned bytes.
  static reg add_signed_quads(reg acc, reg quads) {
    return _mm512_dpbusd_epi32(acc, _mm512_set1_epi8(1), quads);
  }
  static reg add_unsigned_quads(reg acc, reg quads) {
    return _mm512_dpbusd_epi32(acc, quads, _mm512_set1_epi8(1));
  }

  // Four depth steps of 16 rows of an operand whose rows are contiguous, columns cs apart, as 16
  // quads at dst.
  static void store_quad_rows(const std::int8_t* column, std::int64_t cs, std::int32_t* dst) {
    store_x86_quad_rows(column, cs, dst);
  }
};

}  // namespace ridge::simd
