// Block sizes from the analytical model of Low, Igual, Smith and Quintana-Orti, "Analytical
// modeling is enough for high-performance BLIS", ACM TOMS 43(2), 2016.
#pragma once

#include "gemm/problem.hpp"
#include "ridge/machine.hpp"

namespace ridge::gemm_detail {

// Block sizes for an MR x NR micro-kernel on elements of `element_bytes`, from the machine's
// L1, L2 and L3 (size, line, associativity, sharing).
BlockSizes derive_block_sizes(const Machine& machine, int mr, int nr, int element_bytes);

// The most lines of one L1 set that `columns` columns of an unpacked operand occupy at one depth
// step, when consecutive columns lie `stride_bytes` apart. A stride that is a multiple of the L1
// way size (4 KiB on Zen 4) maps every column to the same set.
std::int64_t l1_lines_per_set(std::int64_t stride_bytes, std::int64_t columns,
                              const BlockSizes& blocks);

}  // namespace ridge::gemm_detail
