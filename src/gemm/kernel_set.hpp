// What each ISA's GEMM translation unit provides for one element type (the dispatch table's
// entries), and the workspace each of its paths takes.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "gemm/blocking.hpp"
#include "kernels/problem.hpp"
#include "kernels/tile_shapes.hpp"
#include "runtime/workspace.hpp"
#include "simd/isa_unit.hpp"

namespace ridge::gemm_detail {

using kernels::GemmProblem;

// How the direct path (A unpacked where it can be) runs a problem.
struct DirectOptions {
  std::int64_t depth = 0;     // KC: the depth of each slice of the product
  bool pack_b = false;        // pack each depth slice of B, else read B in place
  bool pack_a = false;        // pack each MR-row slab of A even where it could be read in place
  // A read in place from memory or a page per column: each row of tiles starts with the rows up
  // to A's first line boundary, so every later tile reads whole lines (Loops::direct).
  bool line_aligned_tiles = false;
  // B fits L1: tiles this many columns wide (one of GemmKernels::narrow_columns); 0 or NR: the
  // full tile.
  int narrow_columns = 0;
  // The independent FMA chains that keep this core's FMA units busy (latency x pipes); a row's
  // last strip with fewer accumulators shares the columns with the one before (Loops::direct).
  // 0: the strips stay NR wide.
  int fma_chains = 0;
  // A read in place: each row of tiles fetches the next one's rows into L1 (Loops::direct).
  bool fetch_a = true;
  // Whether the direct path packs A: as asked, and always when A's rows are not contiguous.
  template <class T>
  bool packs_a(const kernels::GemmProblem<T>& p) const { return pack_a || p.a_rs != 1; }
};

// How the packed path runs a problem.
struct PackedOptions {
  // Each A block is packed while the block before it is multiplied (only where A is
  // column-contiguous, a_rs == 1; meant for one that streams from memory).
  bool copy_ahead = false;
  // As DirectOptions::fma_chains: a block's last column strip with fewer accumulators shares the
  // columns with the one before (Loops::packed). 0: the strips stay NR wide.
  int fma_chains = 0;
};

// One call's workspace for a path: its parts, each on its own pages.
template <class T>
struct WorkspaceParts {
  std::int64_t a_elements = 0;  // A packed: a block (packed path) or one slab (direct path)
  std::int64_t b_elements = 0;  // B packed: a panel (packed path) or one depth slice (direct)
  // The sums of A's rows and B's columns that the kernels on int8 quads correct their product
  // by (kernels::QuadCorrection): A's rows, then a panel's columns.
  std::int64_t sum_elements = 0;
  std::size_t a_bytes() const { return runtime::pages_for<T>(a_elements); }
  std::size_t b_bytes() const { return runtime::pages_for<T>(b_elements); }
  std::size_t bytes() const { return a_bytes() + b_bytes() + runtime::pages_for<T>(sum_elements); }
  T* a(std::byte* work) const { return reinterpret_cast<T*>(work); }
  T* b(std::byte* work) const { return reinterpret_cast<T*>(work + a_bytes()); }
  T* sums(std::byte* work) const { return reinterpret_cast<T*>(work + a_bytes() + b_bytes()); }
};

inline std::int64_t round_up(std::int64_t x, std::int64_t multiple) {
  return (x + multiple - 1) / multiple * multiple;
}

// The packed path's depth slices and blocks for a k-deep product: KC and MC as the model says
// at that depth (packed_depth, blocks_at_depth). With copy_ahead (Loops::packed) the slices are
// at most kCopyAheadDepth deep and the blocks have an eighth of the rows the model gives at that
// depth: the two blocks then take a fraction of the cache the one did, and the rest is left to
// the stream of A passing through it. Measured on the 2-vCPU Xeon guest, M x 4096 x 4096
// row-major, 1 thread, GFLOP/s at M = 32 (each block packed before its tiles instead: 128
// AVX-512 sgemm, 61 dgemm, 81 AVX2 sgemm, 40 dgemm):
//  - AVX-512 sgemm (KC = 340, MC = 704): both blocks full-sized 100, half the rows 129, half the
//    rows and half the depth 147-151, an eighth of the rows at the full depth 145-146, at half
//    the depth 152-153, at depth 192 151-153, at 256 149;
//  - AVX-512 dgemm (KC = 168, MC = 720): half the rows at half the depth 53-57, an eighth of the
//    rows at the full depth 71-74 (a sixteenth 70-72, a thirty-second 66-68);
//  - AVX2 sgemm (KC = 680): an eighth of the rows at the full depth 67, at half the depth 87-88,
//    at depth 192 90-91; dgemm (KC = 340) at depth 192 43-44.
// And the two blocks take at most half of L2 (the streamed capacity): on a smaller L2 an eighth
// of the rows leaves the blocks in L3, where every column strip rereads its A block from. On the
// Zen 3 host (512 KiB L2, KC = 1192, MC = 576: an eighth is 448 rows at depth 188, two blocks
// 658 KiB; half of L2 144), M x 4096 x 4096 row-major against an eighth, alternated, GFLOP/s:
// sgemm 1 thread M = 32 / 64 / 128 69.9 / 77.1 / 82.2 against 62.8 / 75.2 / 81.9, dgemm 28.8 /
// 35.2 / 39.3 against 27.3 / 33.5 / 37.8; 2 threads (two runs) 0.94-1.19x, most rows 1.02-1.05x.
inline constexpr std::int64_t kCopyAheadDepth = 192;
inline constexpr std::int64_t kCopyAheadRowShare = 8;

struct PackedPlan {
  std::int64_t depth = 0;  // the depth of every slice but the last
  BlockSizes blocks;
};
// `multiple`: GemmKernels::step_multiple, which k is a multiple of (packed_depth).
inline PackedPlan packed_plan(std::int64_t k, const BlockSizes& model, int mr, int nr,
                              bool copy_ahead, int multiple = 1) {
  BlockSizes slices = model;
  if (copy_ahead) slices.kc = std::min(model.kc, kCopyAheadDepth);
  const std::int64_t depth = packed_depth(k, slices, multiple);
  BlockSizes b = blocks_at_depth(model, depth, mr, nr);
  if (copy_ahead) {
    std::int64_t rows = b.mc / kCopyAheadRowShare;
    if (model.l2_elements > 0) rows = std::min(rows, model.l2_elements / (4 * depth));
    b.mc = std::max<std::int64_t>(mr, rows / mr * mr);
  }
  return {depth, b};
}

// The packed path on an m x n block of C, k deep: an MC x KC block of A (two with copy_ahead),
// a KC x NC panel of B, and with `sums` the int8 quad kernels' sums of A's rows and a panel's
// columns; k a multiple of `multiple` (GemmKernels::step_multiple).
template <class T>
WorkspaceParts<T> packed_workspace(std::int64_t m, std::int64_t n, std::int64_t k,
                                   const BlockSizes& blocks, int mr, int nr, bool copy_ahead,
                                   bool sums = false, int multiple = 1) {
  const PackedPlan plan = packed_plan(k, blocks, mr, nr, copy_ahead, multiple);
  const std::int64_t a_block = std::min(plan.blocks.mc, round_up(m, mr)) * plan.depth;
  const std::int64_t panel_width = std::min(plan.blocks.nc, round_up(n, nr));
  return {(copy_ahead ? 2 : 1) * a_block, panel_width * plan.depth,
          sums ? round_up(m, mr) + panel_width : 0};
}

// The direct path: one MR-row slab of A and one depth slice of B, each when the options pack it;
// nothing, the usual small product, when both are read in place (a case the driver's sizing then
// folds away: it runs on every call).
template <class T>
WorkspaceParts<T> direct_workspace(const GemmProblem<T>& p, const DirectOptions& options, int mr,
                                   int nr) {
  if (!options.packs_a(p) && !options.pack_b) return {};
  const std::int64_t kc = std::min(options.depth, p.k);
  return {options.packs_a(p) ? mr * kc : 0, options.pack_b ? round_up(p.n, nr) * kc : 0};
}

// Whether the packed path on an A packed beforehand (Loops::prepacked) packs all of an n x k B
// at once: where it takes at most half of the L2 a stream of reads keeps.
inline bool prepacked_whole_b(std::int64_t n, std::int64_t k, const BlockSizes& blocks, int nr) {
  return round_up(n, nr) * k <= blocks.l2_elements / 2;
}

// That path on an m x n block of C, `steps` deep in slices `depth` deep: all of B, or a KC x NC
// panel, and with `sums` the int8 quad kernels' sums of the block's rows and B's columns.
template <class T>
WorkspaceParts<T> prepacked_workspace(std::int64_t m, std::int64_t n, std::int64_t steps,
                                      std::int64_t depth, const BlockSizes& blocks, int mr, int nr,
                                      bool b_in_place, bool sums = false) {
  if (b_in_place) return {};
  const bool whole = prepacked_whole_b(n, steps, blocks, nr);
  const std::int64_t width =
      whole ? round_up(n, nr)
            : std::min(blocks_at_depth(blocks, depth, mr, nr).nc, round_up(n, nr));
  return {0, width * (whole ? steps : depth), sums ? round_up(m, mr) + width : 0};
}

// The steps of a panel of A packed beforehand over a k-deep product, `group` depth steps a lane
// (GemmKernels::depth_group): one MR-row step each, and for int8 quads one more at the end that
// holds the panel's row sums (the correction's, kernels::QuadCorrection), so that a block of
// rows finds its sums where it finds its panels. The steps are a multiple of `multiple`
// (GemmKernels::step_multiple), the last ones zero.
inline std::int64_t prepacked_panel_steps(std::int64_t k, int group, int multiple = 1) {
  const std::int64_t steps = round_up((k + group - 1) / group, multiple);
  return group == 4 ? steps + 1 : steps;
}

// SourceA, SourceB: the stored operands' types (kernels::GemmProblem); int8 ones have the packed
// path only (direct is null).
template <class T, class SourceA = T, class SourceB = T>
struct GemmKernels {
  using Problem = GemmProblem<T, SourceA, SourceB>;
  const char* isa = nullptr;
  int mr = 0;     // micro-tile rows (a multiple of the vector width)
  int nr = 0;     // micro-tile columns
  int width = 0;  // elements per vector
  // Inner-dimension steps per lane of the packed operands: 1, 2 for pairs (int16, bf16) or 4 for
  // int8 quads, whose packed path takes sums in its workspace (packed_workspace's `sums`). The
  // blocks (BlockSizes::kc, packed_workspace's k) count steps.
  int depth_group = 1;
  // The depth steps a slice of the packed paths is a multiple of, padded with zero steps: 1, or
  // 16 for AMX's tiles, which take 16 pairs at a time (kernels/amx_tile.hpp). The packed and
  // prepacked paths' depth and workspace are then those of steps(k) (packed_workspace's
  // `multiple`).
  int step_multiple = 1;
  // The depth steps of a k-deep product on the packed paths: whole lanes, whole multiples.
  std::int64_t steps(std::int64_t k) const {
    return round_up((k + depth_group - 1) / depth_group, step_multiple);
  }
  // What packing an element of A or B on the packed path costs, in the multiply-adds the kernels
  // do in that time, where threads share a product: the grid of thread blocks (driver.cpp,
  // choose_grid) weighs each block's rows and columns by it against its multiply-adds
  // (Loops::kPackingCost on the FMA tiles, AmxLoops::kPackingCost on tile registers).
  std::int64_t packing_cost = 0;
  // The widest B (rows of x) against which a bf16 or int8 x W^T, W's rows contiguous, takes dot
  // products along W's rows (pair_dot, row_dot, the float dot) rather than the packed path; 0:
  // the driver's width for the instructions those dot products run on (gemm/driver.cpp).
  std::int64_t dot_width = 0;
  // The narrow tiles' columns (DirectOptions::narrow_columns) for 1, 2, ... FMA pipes; nr: none.
  int narrow_columns[kernels::kMaxFmaPipes] = {};
  // The five-loop algorithm with packed A and B, on the calling thread; `work` holds
  // packed_workspace(m, n, steps, blocks, mr, nr, options.copy_ahead, depth_group == 4,
  // step_multiple).bytes(), steps the depth's rounded up to step_multiple.
  void (*packed)(const Problem&, const BlockSizes&, const PackedOptions& options,
                 std::byte* work) = nullptr;
  // The same micro-kernel with A read in place when it is column-contiguous (else packed one
  // MR-row slab at a time) and B in place unless options.pack_b, options.depth of the depth at a
  // time: for small and skinny problems. `work` holds direct_workspace(p, options, mr, nr).
  void (*direct)(const Problem&, const DirectOptions&, std::byte* work) = nullptr;
  // The packed path on an A packed beforehand (Loops::prepacked): the problem's A its panels of
  // MR rows over the whole depth, `a_rs` = prepacked_panel_steps(k, depth_group, step_multiple)
  // slots a row and
  // `a_cs` = MR (int8 pairs less the zero point they were packed with, quads with the row sums
  // after each panel); `depth` steps deep slices. `work` holds prepacked_workspace(m, n, steps,
  // depth, blocks, mr, nr, b_in_place, depth_group == 4).bytes(), steps rounded up to
  // step_multiple. b_in_place: float and double
  // only. And, float C only, the product with one column of C or a few (at most
  // kernels::kMaxSweepColumns) on such an A (Loops::prepacked_columns, its depth in `parts`:
  // kernels/sweep_parts.hpp), B given as `x`, widened and its columns interleaved as the column
  // sweep takes them (kernels::GemvProblem::columns).
  using PrepackedProblem = GemmProblem<T, T, SourceB>;
  void (*prepacked)(const PrepackedProblem&, std::int64_t depth, const BlockSizes&, int fma_chains,
                    bool b_in_place, std::byte* work) = nullptr;
  void (*prepacked_columns)(const PrepackedProblem&, int parts, const T* x) = nullptr;
  // Packs rows [0, m) of an A of strides rs, cs over depths [0, k) into those panels (int8
  // pairs less `zero`), which take round_up(m, mr) x prepacked_panel_steps(k, depth_group)
  // slots.
  void (*pack_panels)(std::int64_t m, std::int64_t k, const SourceA* a, std::int64_t rs,
                      std::int64_t cs, std::int32_t zero, T* panels) = nullptr;
  // int8 only: C = (A - a_zero)(X - x_zero) for C of up to kernels::kMaxInt8SweepColumns columns
  // (ldc apart), m rows in blocks of row_block, A column-major (columns lda apart) and X's
  // columns contiguous (ldx apart): the column sweep (kernels/pair_column_sweep.hpp).
  void (*column_sweep)(std::int64_t m, std::int64_t k, const SourceA* a, std::int64_t lda,
                       std::int32_t a_zero, const SourceB* x, std::int64_t ldx, std::int32_t x_zero,
                       T* c, std::int64_t ldc, std::int64_t columns,
                       std::int64_t row_block) = nullptr;
  int column_sweep_rows = 0;  // the rows column_sweep does a step: row_block is a multiple
  // The most columns of C the route gives column_sweep (bf16: GEMV's column sweep,
  // kernels/column_sweep.hpp), with A within L2 and past it (measured: Loops'
  // make_gemm_kernels, AmxLoops).
  std::array<int, 2> column_sweep_columns{};
  // Of those, the most against an A of a_bytes, L2 holding l2_bytes of a stream.
  int sweep_columns(std::int64_t a_bytes, std::int64_t l2_bytes) const {
    return column_sweep_columns[a_bytes > l2_bytes ? 1 : 0];
  }
  // int8 only: C = (A - a_zero)(X - x_zero) for C of a few columns (ldc apart), A of contiguous
  // rows (lda apart) and X of contiguous columns (ldx apart), as dot products along A's rows
  // (kernels/row_dot.hpp), with a workspace of row_dot_bytes(k, n) bytes.
  void (*row_dot)(std::int64_t m, std::int64_t n, std::int64_t k, const SourceA* a,
                  std::int64_t lda, std::int32_t a_zero, const SourceB* x, std::int64_t ldx,
                  std::int32_t x_zero, T* c, std::int64_t ldc, std::uint8_t* work) = nullptr;
  std::int64_t (*row_dot_bytes)(std::int64_t k, std::int64_t n) = nullptr;
  // bf16 pairs only (VDPBF16PS): C = alpha A B + beta C as dot products of pairs along A's rows
  // and B's columns, both contiguous (kernels/dot.hpp's pairs form; its workspace as
  // VectorKernels::dot_bf16's).
  void (*pair_dot)(const GemmProblem<T, SourceA, SourceB>&, bool prefetch, T* b_copy) = nullptr;
  // AMX tiles only: C = alpha A B + beta C for A of contiguous rows (the weights of x W^T) and C
  // of at most rows_in_place_width columns, the tiles reading A's rows where they lie
  // (kernels/amx_row_tile.hpp) in slices `depth` steps deep (the packed path's, whose results
  // these are to the bit), with a workspace of rows_in_place_bytes(m, n, k) bytes.
  void (*rows_in_place)(const Problem&, std::int64_t depth, std::byte* work) = nullptr;
  std::size_t (*rows_in_place_bytes)(std::int64_t m, std::int64_t n, std::int64_t k) = nullptr;
  std::int64_t rows_in_place_width = 0;
  // int8 only: the dequantising epilogue on rows x cols sums from c on, as the tiles apply it
  // (Loops::finish), for the paths that apply it after their kernel.
  void (*epilogue)(const kernels::Epilogue& e, T* c, std::int64_t rows,
                   std::int64_t cols) = nullptr;
};

}  // namespace ridge::gemm_detail

// One entry point per ISA and type (the arguments only pick the types), each defined in that
// ISA's translation unit (isa_*.cpp). The bf16 GEMM's (C float, A and B bf16 bit patterns) and
// the int8 GEMM's (C int32, A int8, B uint8 or int8: the internal problem's, whose A is the
// stored B) run on every path. On AVX-512 the bf16 GEMM is the avx512_amx unit's where the CPU
// has AMX-BF16 and the OS lets the process use the tiles (runtime/amx.hpp), else the
// avx512_bf16 unit's where the CPU has AVX512_BF16, and the int8 GEMM the avx512_amx unit's
// where it has AMX-INT8, else the avx512_vnni unit's where it has AVX512_VNNI (its one-column
// product AVX-512's pairs either way), else AVX-512's own. On AVX2 the int8 GEMM is the
// avx2_vnni unit's where the CPU has AVX-VNNI (runtime::avx_vnni_allowed; its one-column product
// AVX2's pairs), else AVX2's own.
namespace ridge::generic {
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<float> gemm_kernels(float);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<double> gemm_kernels(double);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<float, std::uint16_t, std::uint16_t> gemm_kernels(
    float, std::uint16_t, std::uint16_t);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::uint8_t> gemm_kernels(
    std::int32_t, std::int8_t, std::uint8_t);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::int8_t> gemm_kernels(
    std::int32_t, std::int8_t, std::int8_t);
}  // namespace ridge::generic
namespace ridge::avx2 {
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<float> gemm_kernels(float);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<double> gemm_kernels(double);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<float, std::uint16_t, std::uint16_t> gemm_kernels(
    float, std::uint16_t, std::uint16_t);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::uint8_t> gemm_kernels(
    std::int32_t, std::int8_t, std::uint8_t);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::int8_t> gemm_kernels(
    std::int32_t, std::int8_t, std::int8_t);
}  // namespace ridge::avx2
namespace ridge::avx512 {
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<float> gemm_kernels(float);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<double> gemm_kernels(double);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<float, std::uint16_t, std::uint16_t> gemm_kernels(
    float, std::uint16_t, std::uint16_t);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::uint8_t> gemm_kernels(
    std::int32_t, std::int8_t, std::uint8_t);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::int8_t> gemm_kernels(
    std::int32_t, std::int8_t, std::int8_t);
}  // namespace ridge::avx512
namespace ridge::avx512_bf16 {
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<float, std::uint16_t, std::uint16_t> gemm_kernels(
    float, std::uint16_t, std::uint16_t);
}  // namespace ridge::avx512_bf16
namespace ridge::avx512_amx {
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<float, std::uint16_t, std::uint16_t> gemm_kernels(
    float, std::uint16_t, std::uint16_t);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::uint8_t> gemm_kernels(
    std::int32_t, std::int8_t, std::uint8_t);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::int8_t> gemm_kernels(
    std::int32_t, std::int8_t, std::int8_t);
}  // namespace ridge::avx512_amx
namespace ridge::avx2_vnni {
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::uint8_t> gemm_kernels(
    std::int32_t, std::int8_t, std::uint8_t);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::int8_t> gemm_kernels(
    std::int32_t, std::int8_t, std::int8_t);
}  // namespace ridge::avx2_vnni
namespace ridge::avx512_vnni {
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::uint8_t> gemm_kernels(
    std::int32_t, std::int8_t, std::uint8_t);
RIDGE_ISA_ENTRY gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::int8_t> gemm_kernels(
    std::int32_t, std::int8_t, std::int8_t);
}  // namespace ridge::avx512_vnni
