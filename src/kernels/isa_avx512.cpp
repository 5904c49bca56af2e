// The matrix-vector kernels on AVX-512 (a per-ISA unit: simd/isa_unit.hpp).
#include "kernels/vector_kernel_set.hpp"
#include "simd/avx512.hpp"

namespace ridge::avx512 {

kernels::VectorKernels<float> vector_kernels(float) {
  return kernels::make_vector_kernels<simd::Avx512<float>, kernels::kAvx512Tiles>();
}
kernels::VectorKernels<double> vector_kernels(double) {
  return kernels::make_vector_kernels<simd::Avx512<double>, kernels::kAvx512Tiles>();
}

}  // namespace ridge::avx512
