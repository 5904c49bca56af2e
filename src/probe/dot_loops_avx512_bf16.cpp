// bf16 and int8 dot-product throughput loops: vdpbf16ps (AVX512_BF16) and vpdpbusd
// (AVX512_VNNI), 512-bit. Compiled with RIDGE_AVX512_BF16_FLAGS; run only where the CPU has them.
#include <immintrin.h>

#include "probe/fma_loop.hpp"

namespace ridge::avx512_bf16 {
namespace {

// vdpbf16ps: each of 16 fp32 lanes adds two bf16 products: 4 FLOP per lane.
template <int Chains>
std::int64_t bf16_chains(std::int64_t iterations, volatile double* sink) {
  __m512 acc[Chains];
  const __m512bh a = _mm512_cvtne2ps_pbh(_mm512_set1_ps(1e-3f), _mm512_set1_ps(1e-3f));
  const __m512bh b = _mm512_cvtne2ps_pbh(_mm512_set1_ps(1e-4f), _mm512_set1_ps(1e-4f));
  _Pragma("GCC unroll 32") for (int c = 0; c < Chains; ++c) acc[c] = _mm512_set1_ps(float(c));
  for (std::int64_t i = 0; i < iterations; ++i) {
    _Pragma("GCC unroll 32") for (int c = 0; c < Chains; ++c) acc[c] = _mm512_dpbf16_ps(acc[c], a, b);
  }
  __m512 sum = acc[0];
  for (int c = 1; c < Chains; ++c) sum = _mm512_add_ps(sum, acc[c]);
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, sum);
  *sink = lanes[0] + lanes[15];
  return iterations * Chains * 16 * 4;
}

// vpdpbusd: each of 16 int32 lanes adds four u8 x s8 products: 8 ops per lane. Each step adds
// -24 per lane, so the sums wrap only after ~9e7 iterations, far beyond any timed run.
template <int Chains>
std::int64_t int8_chains(std::int64_t iterations, volatile double* sink) {
  __m512i acc[Chains];
  const __m512i a = _mm512_set1_epi8(3);
  const __m512i b = _mm512_set1_epi8(-2);
  _Pragma("GCC unroll 32") for (int c = 0; c < Chains; ++c) acc[c] = _mm512_set1_epi32(c);
  for (std::int64_t i = 0; i < iterations; ++i) {
    _Pragma("GCC unroll 32") for (int c = 0; c < Chains; ++c) acc[c] = _mm512_dpbusd_epi32(acc[c], a, b);
  }
  __m512i sum = acc[0];
  for (int c = 1; c < Chains; ++c) sum = _mm512_add_epi32(sum, acc[c]);
  alignas(64) int lanes[16];
  _mm512_store_si512(lanes, sum);
  *sink = lanes[0] + lanes[15];
  return iterations * Chains * 16 * 8;
}

}  // namespace

// Chain counts: latency x pipes <= 8 (fma_loop.hpp); bf16 as the AVX-512 FMA loop. int8 runs
// 12 and checks 16: with 20 or 24 __m512i accumulators GCC 12 copies them through other registers
// and the stack every iteration (measured: half the rate), which would test the compiler.
probe::DotLoops dot_loops() {
  return {{{16, bf16_chains<16>}, {24, bf16_chains<24>}}, {{12, int8_chains<12>}, {16, int8_chains<16>}}};
}

}  // namespace ridge::avx512_bf16
