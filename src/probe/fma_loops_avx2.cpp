// FMA throughput loops on AVX2 + FMA.
#include "probe/fma_loop.hpp"
#include "simd/avx2.hpp"

namespace ridge::avx2 {
probe::FmaLoops fma_loops() {
  return probe::make_fma_loops<simd::Avx2<float>, simd::Avx2<double>, 12, 14>();
}
}  // namespace ridge::avx2
