// Cache blocking of the five-loop algorithm, from the analytical model of Low, Igual, Smith and
// Quintana-Orti, "Analytical modeling is enough for high-performance BLIS", ACM TOMS 43(2), 2016.
#pragma once

#include <cstdint>

#include "ridge/machine.hpp"

namespace ridge::gemm_detail {

// (blocking.cpp says where each comes from.)
struct BlockSizes {
  std::int64_t mc = 0;        // rows of the packed A block, kept in L2 or this core's L3 share
  std::int64_t kc = 0;        // depth of micro-panels; an A micro-panel + a B micro-panel fit L1
  std::int64_t nc = 0;        // columns of the packed B panel, in the rest of that share
  std::int64_t direct_b = 0;  // elements of an unpacked B that stay in L2 (direct path limit)
  std::int64_t slab_depth = 0;  // the direct path's deepest slice (GemmTuning::slab_depth's model)
  int a_level = 3;              // where the A block is kept: 2 or 3 (blocking.cpp, a_lives_in_l3)
};

// Block sizes for an MR x NR micro-kernel on elements of `element_bytes`, from the machine's
// L1, L2 and L3 (size, line, associativity, sharing). Nonzero, `b_l1_ways` gives B's
// micro-panel that many ways of L1 and `a_level` keeps the A block in that level instead of the
// model's choices (GemmTuning::b_l1_ways, a_level).
BlockSizes derive_block_sizes(const Machine& machine, int mr, int nr, int element_bytes,
                              int b_l1_ways = 0, int a_level = 0);

// The blocks for a product only `kc` deep (kc <= blocks.kc): the model sizes the packed blocks in
// bytes at depth KC, so a shallower product fits as many more rows of A (MC) and columns of B
// (NC) in them. 4096 x 4096 x 128 sgemm then packs A once instead of 4 times (once per NC
// columns of B).
BlockSizes blocks_at_depth(const BlockSizes& blocks, std::int64_t kc, int mr, int nr);

}  // namespace ridge::gemm_detail
