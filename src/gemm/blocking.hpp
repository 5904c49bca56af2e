// Block sizes from the analytical model of Low, Igual, Smith and Quintana-Orti, "Analytical
// modeling is enough for high-performance BLIS", ACM TOMS 43(2), 2016.
#pragma once

#include "gemm/problem.hpp"
#include "ridge/machine.hpp"

namespace ridge::gemm_detail {

// Block sizes for an MR x NR micro-kernel on elements of `element_bytes`, from the machine's
// L1, L2 and L3 (size, line, associativity, sharing).
BlockSizes derive_block_sizes(const Machine& machine, int mr, int nr, int element_bytes);

// The blocks for a product only `kc` deep (kc <= blocks.kc): the model sizes the packed blocks in
// bytes at depth KC, so a shallower product fits as many more rows of A (MC) and columns of B
// (NC) in them. 4096 x 4096 x 128 sgemm then packs A once instead of 4 times (once per NC
// columns of B).
BlockSizes blocks_at_depth(const BlockSizes& blocks, std::int64_t kc, int mr, int nr);

// Whether a kernel that reads `bytes` of an operand once, in order, should fetch ahead of itself
// (the dot and GEMV kernels): only past what L3 keeps, when the operand streams from DRAM and
// the hardware prefetchers alone leave the memory system idle part of the time. From the caches
// the extra instructions only cost.
bool prefetch_streams(std::int64_t bytes, const BlockSizes& blocks);

// The most lines of one L1 set that `columns` columns of an unpacked operand occupy at one depth
// step, when consecutive columns lie `stride_bytes` apart. A stride that is a multiple of the L1
// way size (4 KiB on Zen 4) maps every column to the same set.
std::int64_t l1_lines_per_set(std::int64_t stride_bytes, std::int64_t columns,
                              const BlockSizes& blocks);

}  // namespace ridge::gemm_detail
