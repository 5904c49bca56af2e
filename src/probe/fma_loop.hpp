// The FMA throughput loop, over a vector-traits type V: enough independent accumulator chains
// to cover FMA latency x throughput on current cores (4 cycles x 2 pipes = 8; 16 leaves margin).
#pragma once

#include <cstdint>

namespace ridge::probe {

template <class V>
typename V::scalar fma_chains(std::int64_t iterations) {
  constexpr int kChains = 16;
  using reg = typename V::reg;
  reg acc[kChains];
  const reg x = V::set1(typename V::scalar(0.999999));
  const reg y = V::set1(typename V::scalar(1e-7));
  _Pragma("GCC unroll 16") for (int c = 0; c < kChains; ++c) acc[c] = V::set1(typename V::scalar(c));
  for (std::int64_t i = 0; i < iterations; ++i) {
    _Pragma("GCC unroll 16") for (int c = 0; c < kChains; ++c) {
      acc[c] = V::fma(acc[c], x, y);
    }
  }
  reg sum = acc[0];
  for (int c = 1; c < kChains; ++c) sum = V::add(sum, acc[c]);
  return V::reduce_add(sum);
}

// Each ISA's translation unit: runs `iterations` steps; returns the FLOP done (and a value that
// depends on the work, stored to `sink`, so it cannot be skipped).
struct FmaLoops {
  std::int64_t (*f32)(std::int64_t iterations, volatile double* sink);
  std::int64_t (*f64)(std::int64_t iterations, volatile double* sink);
};

template <class F32, class F64>
FmaLoops make_fma_loops() {
  return {[](std::int64_t n, volatile double* sink) {
            *sink = fma_chains<F32>(n);
            return n * 16 * F32::width * 2;
          },
          [](std::int64_t n, volatile double* sink) {
            *sink = fma_chains<F64>(n);
            return n * 16 * F64::width * 2;
          }};
}

FmaLoops generic_fma_loops();
FmaLoops avx2_fma_loops();
FmaLoops avx512_fma_loops();

}  // namespace ridge::probe
