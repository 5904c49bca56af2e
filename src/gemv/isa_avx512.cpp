// GEMV kernels for the avx512 path (compiled with its ISA flags, see src/CMakeLists.txt).
#include "gemv/kernels.hpp"
#include "simd/avx512.hpp"

namespace ridge::gemv_detail {

Kernels<float> avx512_kernels_f32() { return GemvKernels<simd::Avx512<float>>::kernels(); }
Kernels<double> avx512_kernels_f64() { return GemvKernels<simd::Avx512<double>>::kernels(); }

}  // namespace ridge::gemv_detail
