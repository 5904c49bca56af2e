// The matrix-vector and activation kernels on AVX-512 (a per-ISA unit: simd/isa_unit.hpp).
#include "kernels/activation_kernel_set.hpp"
#include "kernels/vector_kernel_set.hpp"
#include "simd/avx512.hpp"

namespace ridge::avx512 {

kernels::VectorKernels<float> vector_kernels(float) {
  return kernels::make_vector_kernels<simd::Avx512<float>, kernels::kAvx512Tiles>();
}
kernels::VectorKernels<double> vector_kernels(double) {
  return kernels::make_vector_kernels<simd::Avx512<double>, kernels::kAvx512Tiles>();
}

kernels::ActivationKernel activation_kernel(kernels::Activation f) {
  return kernels::make_activation_kernel<simd::Avx512<float>>(f);
}

}  // namespace ridge::avx512
