// GEMV kernels for the generic path (compiled with its ISA flags, see src/CMakeLists.txt).
#include "gemv/kernels.hpp"
#include "simd/generic.hpp"

namespace ridge::gemv_detail {

Kernels<float> generic_kernels_f32() { return GemvKernels<simd::Generic<float>>::kernels(); }
Kernels<double> generic_kernels_f64() { return GemvKernels<simd::Generic<double>>::kernels(); }

}  // namespace ridge::gemv_detail
