// FMA throughput loops on AVX-512.
#include "probe/fma_loop.hpp"
#include "simd/avx512.hpp"

namespace ridge::avx512 {
probe::FmaLoops fma_loops() {
  return probe::make_fma_loops<simd::Avx512<float>, simd::Avx512<double>, 16, 24>();
}
}  // namespace ridge::avx512
