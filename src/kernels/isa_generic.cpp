// The matrix-vector and epilogue kernels on Portable traits (the baseline ISA) (a per-ISA
// unit: simd/isa_unit.hpp).
#include "kernels/epilogue_kernel_set.hpp"
#include "kernels/epilogue_kernels.hpp"
#include "kernels/vector_kernel_set.hpp"
#include "simd/generic.hpp"

namespace ridge::generic {

kernels::VectorKernels<float> vector_kernels(float) {
  return kernels::make_vector_kernels<simd::Generic<float>, kernels::kGenericTiles>();
}
kernels::VectorKernels<double> vector_kernels(double) {
  return kernels::make_vector_kernels<simd::Generic<double>, kernels::kGenericTiles>();
}

void apply_epilogue(const kernels::Epilogue& e, float* c, std::int64_t rows, std::int64_t cols) {
  kernels::apply_epilogue<simd::Generic<float>>(e, c, rows, cols);
}

}  // namespace ridge::generic
