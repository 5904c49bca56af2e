// Block sizes from the analytical model of Low, Igual, Smith and Quintana-Orti, "Analytical
// modeling is enough for high-performance BLIS", ACM TOMS 43(2), 2016.
#pragma once

#include "gemm/problem.hpp"
#include "ridge/machine.hpp"

namespace ridge::gemm_detail {

// Block sizes for an MR x NR micro-kernel on elements of `element_bytes`, from the machine's
// L1, L2 and L3 (size, line, associativity, sharing).
BlockSizes derive_block_sizes(const Machine& machine, int mr, int nr, int element_bytes);

}  // namespace ridge::gemm_detail
