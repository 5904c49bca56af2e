// GEMV's kernel for y = alpha * A x + beta * y with A column-major, written once over the vector
// traits (src/simd) and instantiated per ISA (kernels/isa_*.cpp). GEMV does two FLOP
// per element of A and reads each element once: it is bound by the rate A streams in from
// memory, so A is read exactly once, in address order, a few long contiguous runs at a time (the
// pattern the hardware prefetchers follow best), and everything else (x, partial sums) stays in
// L1. (y = A^T x, whose columns are dot products, runs on the dot kernel, kernels/dot.hpp.)
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/pack_bf16.hpp"
#include "kernels/problem.hpp"
#include "simd/unroll.hpp"

namespace ridge::kernels {

// SourceA: A's stored type, V::scalar or (V of floats) bf16 bit patterns, widened as loaded.
template <class V, class SourceA = typename V::scalar>
struct ColumnSweep {
  using T = typename V::scalar;
  using reg = typename V::reg;
  static constexpr int W = V::width;


  // y = alpha * A x + beta * y, A column-major: y is a sum of A's columns. Rows go in blocks
  // whose partial sums t stay in cache (sweep_rows in kernels/matrix_vector.cpp); across a
  // block, kColumns columns at a time stream in (each a contiguous run of the block's rows) and
  // are added to t in column order, so every y element sees the same operations whatever the
  // grouping and the split between threads. While a group streams in, each load may also ask
  // L2 for the same rows of the next group's columns, so more lines are in flight than the
  // hardware prefetchers keep on their own (as the dot kernel does with its next tile,
  // kernels/dot.hpp), on cores where that pays (fetches_ahead, kernels/cache_model.hpp).
  // Measured, sgemv row-major A^T x at 4096 x 4096 and 16384 x 4096 (4096-row columns), 1 and 2
  // threads, against OpenBLAS in the same runs (Zen 4, 32 KiB L1): an 8 KiB block (each column
  // read as two halves at different times) 0.82-0.87x on 1 thread, 16 KiB 0.96-1.04x; 4 columns
  // a pass 0.87-0.95x, 8 columns 0.97-1.04x, 16 columns 0.75-0.91x; with the next group
  // prefetched 1.03-1.20x (28-29 GB/s from DRAM on 1 thread, above the probe's plain read loop),
  // while prefetching 512 or 2048 bytes ahead within each column lost 3-34%.
  static constexpr int kColumns = 8;

  template <int Columns>
  static void add_columns(std::int64_t rows, const SourceA* a, std::int64_t lda, const T* x, T* t,
                          bool prefetch_next) {
    reg xj[Columns];
    RIDGE_UNROLL for (int j = 0; j < Columns; ++j) xj[j] = V::broadcast(x + j);
    std::int64_t i = 0;
    for (; i + W <= rows; i += W) {
      reg acc = V::load(t + i);
      RIDGE_UNROLL for (int j = 0; j < Columns; ++j) {
        if (prefetch_next) __builtin_prefetch(a + (Columns + j) * lda + i, 0, 2);
        acc = V::fma(load_stored<V>(a + j * lda + i), xj[j], acc);
      }
      V::store(t + i, acc);
    }
    if (i < rows) {
      const int lanes = static_cast<int>(rows - i);
      reg acc = V::load_partial(t + i, lanes);
      RIDGE_UNROLL for (int j = 0; j < Columns; ++j) {
        acc = V::fma(load_stored_partial<V>(a + j * lda + i, lanes), xj[j], acc);
      }
      V::store_partial(t + i, acc, lanes);
    }
  }

  // y = fma(alpha, t, beta * y) over `rows` elements, the formula of the GEMM tiles; beta = 0
  // does not read y (NaN already in y does not propagate).
  static void finish(std::int64_t rows, const T* t, T alpha, T beta, T* y) {
    const reg alpha_v = V::set1(alpha), beta_v = V::set1(beta);
    std::int64_t i = 0;
    for (; i < rows; i += W) {
      const int lanes = static_cast<int>(std::min<std::int64_t>(W, rows - i));
      const reg old = beta != 0 ? V::mul(beta_v, V::load_partial(y + i, lanes)) : V::zero();
      V::store_partial(y + i, V::fma(alpha_v, V::load_partial(t + i, lanes), old), lanes);
    }
  }

  // row_block: rows per block, whose sums `t` (row_block elements) stay in cache (sweep_rows in
  // kernels/matrix_vector.cpp); prefetch: fetch the next group's columns ahead (fetches_ahead
  // in kernels/cache_model.hpp).
  static void run(const GemvProblem<T, SourceA>& p, std::int64_t row_block, bool prefetch, T* t) {
    for (std::int64_t i0 = 0; i0 < p.m; i0 += row_block) {
      const std::int64_t rows = std::min(row_block, p.m - i0);
      std::fill_n(t, rows, T(0));
      const SourceA* a = p.a + i0;
      std::int64_t j = 0;
      for (; j + kColumns <= p.n; j += kColumns)
        add_columns<kColumns>(rows, a + j * p.lda, p.lda, p.x + j, t,
                              prefetch && j + 2 * kColumns <= p.n);
      for (; j < p.n; ++j) add_columns<1>(rows, a + j * p.lda, p.lda, p.x + j, t, false);
      finish(rows, t, p.alpha, p.beta, p.y + i0);
    }
  }
};

}  // namespace ridge::kernels
