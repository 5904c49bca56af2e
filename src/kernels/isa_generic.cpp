// The matrix-vector and activation kernels on Portable traits (the baseline ISA) (a per-ISA
// unit: simd/isa_unit.hpp).
#include "kernels/activation_kernel_set.hpp"
#include "kernels/vector_kernel_set.hpp"
#include "simd/generic.hpp"

namespace ridge::generic {

kernels::VectorKernels<float> vector_kernels(float) {
  return kernels::make_vector_kernels<simd::Generic<float>, kernels::kGenericTiles>();
}
kernels::VectorKernels<double> vector_kernels(double) {
  return kernels::make_vector_kernels<simd::Generic<double>, kernels::kGenericTiles>();
}

kernels::ActivationKernel activation_kernel(kernels::Activation f) {
  return kernels::make_activation_kernel<simd::Generic<float>>(f);
}

}  // namespace ridge::generic
