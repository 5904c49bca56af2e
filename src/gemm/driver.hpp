// The GEMM driver on the internal problem form: picks the path (matrix-vector, dot, direct or
// packed) and the threads, reserves the workspace, and splits C between the threads.
#pragma once

#include "kernels/problem.hpp"

namespace ridge::gemm_detail {

// Runs p (C column-major, any M, N, K >= 0, validated) on the active ISA. Reserves its
// workspace before it writes C: std::bad_alloc leaves C untouched.
template <class T>
void run(const kernels::GemmProblem<T>& p);

extern template void run<float>(const kernels::GemmProblem<float>&);
extern template void run<double>(const kernels::GemmProblem<double>&);

}  // namespace ridge::gemm_detail
