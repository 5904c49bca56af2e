// Multiply-add throughput of the portable vector traits: the rate ridge's generic path can reach,
// whatever the compiler makes of them. The baseline ISA has no fused multiply-add (fma_loop.hpp:
// unfused_chains).
#include "probe/fma_loop.hpp"
#include "simd/generic.hpp"

namespace ridge::probe {
FmaLoops generic_fma_loops() {
  return make_fma_loops<simd::Generic<float>, simd::Generic<double>, kUnfusedChains,
                        kMoreUnfusedChains, false>();
}
}  // namespace ridge::probe
