// Multiply-add throughput of 128-bit SSE2 (the x86-64 baseline, so no ISA flags and no run-time
// check are needed). SSE has no fused multiply-add (fma_loop.hpp: unfused_chains).
#include <emmintrin.h>

#include "probe/fma_loop.hpp"

namespace ridge::probe {
namespace {

struct SseFloat {
  using scalar = float;
  using reg = __m128;
  static constexpr int width = 4;
  static reg set1(float x) { return _mm_set1_ps(x); }
  static reg mul(reg a, reg b) { return _mm_mul_ps(a, b); }
  static reg add(reg a, reg b) { return _mm_add_ps(a, b); }
  static float reduce_add(reg a) {
    alignas(16) float lanes[4];
    _mm_store_ps(lanes, a);
    return lanes[0] + lanes[1] + lanes[2] + lanes[3];
  }
};

struct SseDouble {
  using scalar = double;
  using reg = __m128d;
  static constexpr int width = 2;
  static reg set1(double x) { return _mm_set1_pd(x); }
  static reg mul(reg a, reg b) { return _mm_mul_pd(a, b); }
  static reg add(reg a, reg b) { return _mm_add_pd(a, b); }
  static double reduce_add(reg a) {
    alignas(16) double lanes[2];
    _mm_store_pd(lanes, a);
    return lanes[0] + lanes[1];
  }
};

}  // namespace

FmaLoops sse_fma_loops() { return make_fma_loops<SseFloat, SseDouble, kUnfusedChains, kMoreUnfusedChains, false>(); }

}  // namespace ridge::probe
