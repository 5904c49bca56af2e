// The matrix-vector and activation kernels on AVX2 + FMA (a per-ISA unit: simd/isa_unit.hpp).
#include "kernels/activation_kernel_set.hpp"
#include "kernels/vector_kernel_set.hpp"
#include "simd/avx2.hpp"

namespace ridge::avx2 {

kernels::VectorKernels<float> vector_kernels(float) {
  return kernels::make_vector_kernels<simd::Avx2<float>, kernels::kAvx2Tiles>();
}
kernels::VectorKernels<double> vector_kernels(double) {
  return kernels::make_vector_kernels<simd::Avx2<double>, kernels::kAvx2Tiles>();
}

kernels::ActivationKernel activation_kernel(kernels::Activation f) {
  return kernels::make_activation_kernel<simd::Avx2<float>>(f);
}

}  // namespace ridge::avx2
