// How the column sweep (kernels/column_sweep.hpp) cuts A's depth into parts: shared by GEMV's
// threaded split (kernels/matrix_vector.cpp) and the prepacked one-column product
// (gemm/loops.hpp), which must cut it the same way to give the same bits.
#pragma once

#include <algorithm>
#include <cstdint>

namespace ridge::kernels {

// Columns a sweep adds to its partial sums at a time (ColumnSweep::kColumns).
inline constexpr std::int64_t kSweepColumns = 8;
// The most columns of x one sweep multiplies (GemvProblem::columns), each column's sums two
// registers (bf16's even and odd rows): 16 of AVX-512's 32. int8's sweep (kernels/
// pair_column_sweep.hpp) takes at most 6, past which the tiles are faster
// (GemmKernels::column_sweep_columns).
inline constexpr int kMaxSweepColumns = 8;
inline constexpr int kMaxInt8SweepColumns = 6;

// The parts the depth (A's columns) of a sweep is cut into, each summed on its own and the parts'
// sums then added in order: threads then take parts of the depth, each reading a contiguous
// region of A in whole columns, rather than the same columns' rows in shorter runs side by side.
// A function of the problem alone, so that results do not depend on the thread count (and the
// prepacked one-column product, gemm/loops.hpp, cuts its depth the same way). Measured, 2
// threads, each column's rows split between them against the depth in two parts (Zen 4,
// alternated, GFLOP/s): bf16 x W with one row of x, 1 x 512 x 2048 63 / 105, 1 x 4096 x 1024 85 /
// 110, 1 x 128 x 32768 (32 KiB runs either way) 65 / 96; f32 1 x 256 x 1024 53 / 73. Up to 4
// parts of at least 64 columns, for a problem large enough to be threaded; none where the rows
// alone give long runs (and the parts' sums would be a large workspace).
inline constexpr int kSweepMaxParts = 4;
inline constexpr std::int64_t kSweepPartColumns = 64;
inline constexpr std::int64_t kSweepMinSplitElements = std::int64_t{1} << 16;
inline constexpr std::int64_t kSweepMaxSplitRows = std::int64_t{1} << 16;
constexpr int sweep_depth_parts(std::int64_t rows, std::int64_t depth) {
  if (rows * depth < kSweepMinSplitElements || rows > kSweepMaxSplitRows) return 1;
  return static_cast<int>(std::clamp<std::int64_t>(depth / kSweepPartColumns, 1, kSweepMaxParts));
}
// The first column of part q of `parts` (q = parts: the depth): whole column groups.
constexpr std::int64_t sweep_part_begin(std::int64_t depth, int parts, int q) {
  return q == parts ? depth : q * depth / parts / kSweepColumns * kSweepColumns;
}

}  // namespace ridge::kernels
