// Cache blocking of the five-loop algorithm, from the analytical model of Low, Igual, Smith and
// Quintana-Orti, "Analytical modeling is enough for high-performance BLIS", ACM TOMS 43(2), 2016.
#pragma once

#include <algorithm>
#include <cstdint>

#include "ridge/machine.hpp"

namespace ridge::gemm_detail {

// (blocking.cpp says where each comes from.)
struct BlockSizes {
  std::int64_t mc = 0;        // rows of the packed A block, kept in L2 or this core's L3 share
  std::int64_t kc = 0;        // depth of micro-panels; an A micro-panel + a B micro-panel fit L1
  std::int64_t nc = 0;        // columns of the packed B panel, in the rest of that share
  // Elements of L2 a stream of reads keeps: the direct path's limit on an in-place B, and the
  // budget of the packed path's copied-ahead A blocks (0, in blocks made by hand: no limit).
  std::int64_t l2_elements = 0;
  std::int64_t slab_depth = 0;  // the direct path's deepest slice
  int a_level = 3;              // where the A block is kept: 2 or 3 (blocking.cpp, a_lives_in_l3)
  // A deeper slice, wide_kc (0: none), for products of at least wide_columns columns of C, and
  // a shallower one, narrow_kc (0: none), for those of at most narrow_columns:
  // blocks_for_columns.
  std::int64_t wide_kc = 0, wide_columns = 0, narrow_kc = 0, narrow_columns = 0;
};

// Block sizes for an MR x NR micro-kernel on elements of `element_bytes`, from the machine's
// L1, L2 and L3 (size, line, associativity, sharing), with the choices `tuning` makes
// (GemmTuning::a_level, b_l1_ways, slab_depth) in place of the model's.
BlockSizes derive_block_sizes(const Machine& machine, int mr, int nr, int element_bytes,
                              const GemmTuning& tuning = {});

// Block sizes for tiles that take their operands from tile registers (AMX, kernels/amx_tile.hpp,
// `step_bytes` bytes of A's packed panels per row and depth step), from the machine's L2:
// blocking.cpp says why they differ from the model's.
BlockSizes tile_register_block_sizes(const Machine& machine, int mr, int nr, int step_bytes);

// The blocks for a product of n columns of C: `blocks`, or where n is at least
// blocks.wide_columns (at most blocks.narrow_columns), slices blocks.wide_kc (narrow_kc) deep and
// the blocks as many bytes as the model's (tile_register_block_sizes says why). The problem's n
// decides, not a thread's share of it, so that the slices, and with them the results, are the same
// for any thread count.
BlockSizes blocks_for_columns(const BlockSizes& blocks, std::int64_t n, int mr, int nr);

// The blocks for a product only `kc` deep (kc <= blocks.kc; a deeper kc, as blocks_for_columns
// takes, gets fewer rows and columns the same way): the model sizes the packed blocks in
// bytes at depth KC, so a shallower product fits as many more rows of A (MC) and columns of B
// (NC) in them. 4096 x 4096 x 128 sgemm then packs A once instead of 4 times (once per NC
// columns of B).
BlockSizes blocks_at_depth(const BlockSizes& blocks, std::int64_t kc, int mr, int nr);

// The depth of the packed path's slices of a k-deep product: as few slices as KC allows, all of
// one depth rounded up to a multiple of 4 (packing transposes 4 x 4 blocks), so that no slice is
// a short remainder whose tiles spend nearly as long on C as on their steps. Measured on the
// 2-vCPU Xeon guest, sgemm 1 thread, alternated with the remainder split (KC = 936), two runs:
// 4096 x 4096 x 1024 (936 + 88 -> 2 x 512) 1.08-1.12x, 4096 x 4096 x 2048 1.05-1.10x, 4000^3
// (4 x 936 + 256 -> 5 x 800) 1.08x; 1000^3, 4096^3 and dgemm (KC = 468) within the noise.
// `multiple`: a depth a slice must be a multiple of (kernels whose tiles take whole blocks of the
// depth, AMX's 16 pairs: GemmKernels::step_multiple), for a k that is one too.
inline std::int64_t packed_depth(std::int64_t k, const BlockSizes& blocks, int multiple = 4) {
  const std::int64_t round = std::max(4, multiple);
  const std::int64_t slices = (k + blocks.kc - 1) / blocks.kc;
  return std::min(k, ((k + slices - 1) / slices + round - 1) / round * round);
}

}  // namespace ridge::gemm_detail
