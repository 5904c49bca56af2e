// The int8 dot-product throughput loop of AVX-VNNI: VPDPBUSD in its VEX form, 256-bit. Compiled
// with RIDGE_AVX2_VNNI_FLAGS; run only where the CPU has AVX-VNNI.
#include <immintrin.h>

#include "probe/fma_loop.hpp"

namespace ridge::avx2_vnni {
namespace {

// Each of 8 int32 lanes adds four u8 x s8 products: 8 ops per lane, -24 a step, so the sums wrap
// only after ~9e7 iterations, far beyond any timed run.
template <int Chains>
std::int64_t int8_chains(std::int64_t iterations, volatile double* sink) {
  __m256i acc[Chains];
  const __m256i a = _mm256_set1_epi8(3);
  const __m256i b = _mm256_set1_epi8(-2);
  _Pragma("GCC unroll 32") for (int c = 0; c < Chains; ++c) acc[c] = _mm256_set1_epi32(c);
  for (std::int64_t i = 0; i < iterations; ++i) {
    _Pragma("GCC unroll 32") for (int c = 0; c < Chains; ++c) acc[c] =
        _mm256_dpbusd_avx_epi32(acc[c], a, b);
  }
  __m256i sum = acc[0];
  for (int c = 1; c < Chains; ++c) sum = _mm256_add_epi32(sum, acc[c]);
  alignas(32) int lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), sum);
  *sink = lanes[0] + lanes[7];
  return iterations * Chains * 8 * 8;
}

}  // namespace

// Chain counts: 12, and 14 to check for more (with the two operands 16 registers). On the Xeon
// guest 10 chains ran 436 GOP/s a thread, 12 483-489 and 14 468: the latency is more than 5
// cycles there.
probe::LoopPair int8_dot_loops() { return {{12, int8_chains<12>}, {14, int8_chains<14>}}; }

}  // namespace ridge::avx2_vnni
