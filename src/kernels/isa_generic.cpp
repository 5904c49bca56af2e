// The matrix-vector kernels on Portable traits (the baseline ISA) (a per-ISA unit: simd/isa_unit.hpp).
#include "kernels/vector_kernel_set.hpp"
#include "simd/generic.hpp"

namespace ridge::generic {

kernels::VectorKernels<float> vector_kernels(float) {
  return kernels::make_vector_kernels<simd::Generic<float>, kernels::kGenericTiles>();
}
kernels::VectorKernels<double> vector_kernels(double) {
  return kernels::make_vector_kernels<simd::Generic<double>, kernels::kGenericTiles>();
}

}  // namespace ridge::generic
