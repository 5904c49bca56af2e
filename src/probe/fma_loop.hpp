// The FMA throughput loop, over a vector-traits type V. Chain counts: FMA latency x pipes is
// 4 cycles x 2 on current x86 and ARM server cores, so 8 chains hide it; 12 leave margin and fit
// AVX2's 16 registers with a constant; 32-register AVX-512 takes 16 and checks 24. ISAs without
// a fused multiply-add use unfused_chains below.
#pragma once

#include <cstdint>

#include "probe/throughput_loop.hpp"
#include "simd/isa_unit.hpp"

namespace ridge::probe {

template <class V, int Chains>
typename V::scalar fma_chains(std::int64_t iterations) {
  using reg = typename V::reg;
  using T = typename V::scalar;
  reg acc[Chains];
  const reg x = V::set1(T(0.999999));
  const reg y = V::set1(T(1e-7));
  _Pragma("GCC unroll 32") for (int c = 0; c < Chains; ++c) acc[c] = V::set1(T(c));
  for (std::int64_t i = 0; i < iterations; ++i) {
    _Pragma("GCC unroll 32") for (int c = 0; c < Chains; ++c) acc[c] = V::fma(acc[c], x, y);
  }
  reg sum = acc[0];
  for (int c = 1; c < Chains; ++c) sum = V::add(sum, acc[c]);
  return V::reduce_add(sum);
}

// Without fused multiply-add, the peak is one multiply and one add per pipe pair and cycle. A
// multiply-then-add chain would be latency-bound (measured ~8 cycles per step on Zen 4, so 16
// chains plus constants, more than 16 registers); instead half the chains multiply and half add,
// each op 3-4 cycles x 2 pipes: 12 chains (6 + 6) cover that and 14 check it, in 16 registers.
template <class V, int Chains>
typename V::scalar unfused_chains(std::int64_t iterations) {
  using reg = typename V::reg;
  using T = typename V::scalar;
  static_assert(Chains % 2 == 0);
  constexpr int kHalf = Chains / 2;
  reg product[kHalf], sum[kHalf];
  // 1.0 read through a volatile, so the compiler cannot fold x * 1 away; the products then stay
  // exactly 1 + c (no drift into denormals however long the run).
  volatile T one_opaque = T(1);
  const reg one = V::set1(one_opaque);
  const reg y = V::set1(T(1e-7));
  _Pragma("GCC unroll 32") for (int c = 0; c < kHalf; ++c) {
    product[c] = V::set1(T(1 + c));
    sum[c] = V::set1(T(c));
  }
  for (std::int64_t i = 0; i < iterations; ++i) {
    _Pragma("GCC unroll 32") for (int c = 0; c < kHalf; ++c) {
      product[c] = V::mul(product[c], one);
      sum[c] = V::add(sum[c], y);
    }
  }
  reg total = product[0];
  for (int c = 1; c < kHalf; ++c) total = V::add(total, product[c]);
  for (int c = 0; c < kHalf; ++c) total = V::add(total, sum[c]);
  return V::reduce_add(total);
}

// Fused: each chain step is one FMA, 2 FLOP per lane. Unfused: each step is one multiply or one
// add, 1 FLOP per lane, so a multiply-add still counts 2.
template <class V, int Chains, bool Fused = true>
ChainedLoop fma_loop() {
  return {Chains, [](std::int64_t iterations, volatile double* sink) -> std::int64_t {
            if constexpr (Fused) {
              *sink = static_cast<double>(fma_chains<V, Chains>(iterations));
              return iterations * Chains * V::width * 2;
            } else {
              *sink = static_cast<double>(unfused_chains<V, Chains>(iterations));
              return iterations * Chains * V::width;
            }
          }};
}

struct FmaLoops {
  LoopPair f32;
  LoopPair f64;
};

template <class F32, class F64, int Chains, int MoreChains, bool Fused = true>
FmaLoops make_fma_loops() {
  return {{fma_loop<F32, Chains, Fused>(), fma_loop<F32, MoreChains, Fused>()},
          {fma_loop<F64, Chains, Fused>(), fma_loop<F64, MoreChains, Fused>()}};
}

// Chain counts of the loops without fused multiply-add (unfused_chains).
inline constexpr int kUnfusedChains = 12;
inline constexpr int kMoreUnfusedChains = 14;

FmaLoops scalar_fma_loops();
FmaLoops sse_fma_loops();  // x86-64 only

// bf16 and int8 dot products (vdpbf16ps, vpdpbusd). Run `bf16` only where
// IsaFeatures::avx512_bf16 is set and `int8` only where avx512_vnni is.
struct DotLoops {
  LoopPair bf16;
  LoopPair int8;
};

}  // namespace ridge::probe

// The loops of each ISA, defined in its translation unit (probe/*_loops_<isa>.cpp).
namespace ridge::generic {
RIDGE_ISA_ENTRY probe::FmaLoops fma_loops();
}  // namespace ridge::generic
namespace ridge::avx2 {
RIDGE_ISA_ENTRY probe::FmaLoops fma_loops();
}  // namespace ridge::avx2
namespace ridge::avx2_vnni {
// VPDPBUSD on 256-bit registers: run only where IsaFeatures::avx_vnni is set.
RIDGE_ISA_ENTRY probe::LoopPair int8_dot_loops();
}  // namespace ridge::avx2_vnni
namespace ridge::avx512 {
RIDGE_ISA_ENTRY probe::FmaLoops fma_loops();
}  // namespace ridge::avx512
namespace ridge::avx512_bf16 {
RIDGE_ISA_ENTRY probe::DotLoops dot_loops();
}  // namespace ridge::avx512_bf16
namespace ridge::avx512_amx {
// TDPBF16PS and TDPBUSD on tile registers, the chains being accumulator tiles.
RIDGE_ISA_ENTRY probe::DotLoops tile_loops();
}  // namespace ridge::avx512_amx
