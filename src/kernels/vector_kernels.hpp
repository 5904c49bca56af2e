// The matrix-vector kernels of each ISA, shared by the GEMM and GEMV drivers: dot products along
// the depth (kernels/dot.hpp) and the column sweep (kernels/column_sweep.hpp).
#pragma once

#include <cstdint>

#include "kernels/problem.hpp"
#include "ridge/isa.hpp"
#include "simd/isa_unit.hpp"

namespace ridge::kernels {

// Elements of the workspace the dot kernel copies B into: n columns, each the depth k rounded up
// to whole vectors of `width` plus one vector (see Dot::run).
constexpr std::int64_t dot_column_stride(std::int64_t k, int width) {
  return (k + width - 1) / width * width + width;
}
constexpr std::int64_t dot_workspace_elements(std::int64_t k, std::int64_t n, int width) {
  return dot_column_stride(k, width) * n;
}

template <class T>
struct VectorKernels {
  int width = 0;  // elements per vector
  // C = alpha * A B + beta * C as dot products along the depth, for an A with contiguous rows
  // (a_cs == 1) and a narrow B with contiguous columns (b_rs == 1): skinny products with B
  // transposed in row-major storage, and GEMV's A^T x. `b_copy` holds
  // dot_workspace_elements(k, n, width) elements. prefetch: A streams from memory
  // (streams_from_memory in kernels/cache_model.hpp), and the kernel fetches ahead.
  void (*dot)(const GemmProblem<T>&, bool prefetch, T* b_copy) = nullptr;
  // The same for a B of one column (GEMV's A^T x), in tiles of more rows than `dot`'s
  // (kVectorDotRows in kernels/vector_kernel_set.hpp).
  void (*vector_dot)(const GemmProblem<T>&, bool prefetch, T* b_copy) = nullptr;
  // y = alpha * A x + beta * y for a column-major A (not transposed), m, n >= 1, alpha != 0, x
  // and y of p.columns columns: rows in blocks of `row_block` (whose partial sums, in `sums`,
  // row_block x p.columns elements, stay in cache).
  void (*column_sweep)(const GemvProblem<T>&, std::int64_t row_block, SweepFetch fetch,
                       T* sums) = nullptr;
  // The same for A stored as bf16 bit patterns (float only; null for double).
  void (*column_sweep_bf16)(const GemvProblem<T, std::uint16_t>&, std::int64_t row_block,
                            SweepFetch fetch, T* sums) = nullptr;
  // A part of the depth of such a sweep (sweep_depth_parts in kernels/sweep_parts.hpp): sums[0,
  // m) = A x alone, x's column c's at sums + c * column_stride (alpha, beta and y unused); then y
  // = alpha * (the parts' sums added in order) + beta * y over `rows` elements, part q's sums at
  // sums + q * stride.
  void (*column_sums)(const GemvProblem<T>&, std::int64_t row_block, SweepFetch fetch, T* sums,
                      std::int64_t column_stride) = nullptr;
  void (*column_sums_bf16)(const GemvProblem<T, std::uint16_t>&, std::int64_t row_block,
                           SweepFetch fetch, T* sums, std::int64_t column_stride) = nullptr;
  void (*column_finish)(std::int64_t rows, int parts, const T* sums, std::int64_t stride, T alpha,
                        T beta, T* y) = nullptr;
  // dot and vector_dot for A and B stored as bf16 bit patterns (float only; null for double):
  // x W^T with a few rows of x, W row-major bf16 (a linear layer's weights); vector_dot_bf16's
  // x already widened (GEMV's A^T x).
  void (*dot_bf16)(const GemmProblem<T, std::uint16_t, std::uint16_t>&, bool prefetch,
                   T* b_copy) = nullptr;
  void (*vector_dot_bf16)(const GemmProblem<T, std::uint16_t, T>&, bool prefetch,
                          T* b_copy) = nullptr;
};

// The active ISA's (or a given one's) kernels.
template <class T>
const VectorKernels<T>& vector_kernels(Isa isa);

}  // namespace ridge::kernels

// One entry point per ISA and type (the argument only picks the type), each defined in that ISA's
// translation unit (isa_*.cpp).
namespace ridge::generic {
RIDGE_ISA_ENTRY kernels::VectorKernels<float> vector_kernels(float);
RIDGE_ISA_ENTRY kernels::VectorKernels<double> vector_kernels(double);
}  // namespace ridge::generic
namespace ridge::avx2 {
RIDGE_ISA_ENTRY kernels::VectorKernels<float> vector_kernels(float);
RIDGE_ISA_ENTRY kernels::VectorKernels<double> vector_kernels(double);
}  // namespace ridge::avx2
namespace ridge::avx512 {
RIDGE_ISA_ENTRY kernels::VectorKernels<float> vector_kernels(float);
RIDGE_ISA_ENTRY kernels::VectorKernels<double> vector_kernels(double);
}  // namespace ridge::avx512
