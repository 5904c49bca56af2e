// The matrix-vector and epilogue kernels on AVX-512 (a per-ISA unit: simd/isa_unit.hpp).
#include "kernels/epilogue_kernel_set.hpp"
#include "kernels/epilogue_kernels.hpp"
#include "kernels/vector_kernel_set.hpp"
#include "simd/avx512.hpp"

namespace ridge::avx512 {

kernels::VectorKernels<float> vector_kernels(float) {
  return kernels::make_vector_kernels<simd::Avx512<float>, kernels::kAvx512Tiles>();
}
kernels::VectorKernels<double> vector_kernels(double) {
  return kernels::make_vector_kernels<simd::Avx512<double>, kernels::kAvx512Tiles>();
}

void apply_epilogue(const kernels::Epilogue& e, float* c, std::int64_t rows, std::int64_t cols) {
  kernels::apply_epilogue<simd::Avx512<float>>(e, c, rows, cols);
}

}  // namespace ridge::avx512
