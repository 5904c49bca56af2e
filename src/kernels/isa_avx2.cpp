// The matrix-vector kernels on AVX2 + FMA (a per-ISA unit: simd/isa_unit.hpp).
#include "kernels/vector_kernel_set.hpp"
#include "simd/avx2.hpp"

namespace ridge::avx2 {

kernels::VectorKernels<float> vector_kernels(float) {
  return kernels::make_vector_kernels<simd::Avx2<float>, kernels::kAvx2Tiles>();
}
kernels::VectorKernels<double> vector_kernels(double) {
  return kernels::make_vector_kernels<simd::Avx2<double>, kernels::kAvx2Tiles>();
}

}  // namespace ridge::avx2
