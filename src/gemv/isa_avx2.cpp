// GEMV kernels for the avx2 path (compiled with its ISA flags, see src/CMakeLists.txt).
#include "gemv/kernels.hpp"
#include "simd/avx2.hpp"

namespace ridge::gemv_detail {

Kernels<float> avx2_kernels_f32() { return GemvKernels<simd::Avx2<float>>::kernels(); }
Kernels<double> avx2_kernels_f64() { return GemvKernels<simd::Avx2<double>>::kernels(); }

}  // namespace ridge::gemv_detail
