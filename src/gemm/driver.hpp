// The GEMM driver on the internal problem form: picks the path (packed or direct) and the
// threads, and splits C between them.
#pragma once

#include "gemm/problem.hpp"

namespace ridge::gemm_detail {

// Runs p (C column-major, any M, N, K >= 0, validated) on the active ISA.
template <class T>
void run(const Problem<T>& p);

extern template void run<float>(const Problem<float>&);
extern template void run<double>(const Problem<double>&);

}  // namespace ridge::gemm_detail
