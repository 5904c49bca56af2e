// FMA throughput loops on the portable vector traits.
#include "probe/fma_loop.hpp"
#include "simd/generic.hpp"

namespace ridge::probe {
FmaLoops generic_fma_loops() {
  return make_fma_loops<simd::Generic<float>, simd::Generic<double>>();
}
}  // namespace ridge::probe
