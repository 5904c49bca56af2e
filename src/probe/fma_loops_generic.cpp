// Multiply-add throughput of the portable vector traits: the rate ridge's generic path can reach,
// whatever the compiler makes of them. The baseline ISA has no fused multiply-add (fma_loop.hpp:
// unfused_chains).
#include "probe/fma_loop.hpp"
#include "simd/generic.hpp"

namespace ridge::generic {
probe::FmaLoops fma_loops() {
  return probe::make_fma_loops<simd::Generic<float>, simd::Generic<double>, probe::kUnfusedChains,
                               probe::kMoreUnfusedChains, false>();
}
}  // namespace ridge::generic
