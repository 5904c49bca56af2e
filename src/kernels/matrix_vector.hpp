// y = alpha * op(A) x + beta * y on the matrix-vector kernels, split across threads: GEMV itself,
// and the GEMM of one row or column of C. Shared by the GEMV and GEMM drivers.
#pragma once

#include <cstdint>

#include "kernels/problem.hpp"

namespace ridge::kernels {

// Runs p (validated, any m, n >= 0) on the active ISA with x and y strided: p.x and p.y point to
// element 0, and element i lies at x[i * incx], y[i * incy] (an increment may be negative, not
// zero). Reserves its workspace before it writes y: std::bad_alloc leaves y untouched.
// A may be stored as bf16 (SourceA std::uint16_t, T float).
template <class T, class SourceA = T>
void matrix_vector(const GemvProblem<T, SourceA>& p, std::int64_t incx, std::int64_t incy);

extern template void matrix_vector<float>(const GemvProblem<float>&, std::int64_t, std::int64_t);
extern template void matrix_vector<double>(const GemvProblem<double>&, std::int64_t,
                                           std::int64_t);
extern template void matrix_vector<float, std::uint16_t>(const GemvProblem<float, std::uint16_t>&,
                                                         std::int64_t, std::int64_t);

}  // namespace ridge::kernels
