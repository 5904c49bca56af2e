// Bandwidth kernels on the portable vector traits (no streaming stores).
#include "probe/bandwidth_kernels.hpp"
#include "simd/generic.hpp"

namespace ridge::probe {
BandwidthKernels generic_bandwidth_kernels() { return make_bandwidth_kernels<simd::Generic<double>>(); }
}  // namespace ridge::probe
