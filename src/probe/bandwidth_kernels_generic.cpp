// Bandwidth kernels on the portable vector traits (no streaming stores).
#include "probe/bandwidth_kernels.hpp"
#include "simd/generic.hpp"

namespace ridge::generic {
probe::BandwidthKernels bandwidth_kernels() { return probe::make_bandwidth_kernels<simd::Generic<double>>(); }
}  // namespace ridge::generic
