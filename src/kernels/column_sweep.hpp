// GEMV's kernel for y = alpha * A x + beta * y with A column-major, written once over the vector
// traits (src/simd) and instantiated per ISA (kernels/isa_*.cpp). GEMV does two FLOP
// per element of A and reads each element once: it is bound by the rate A streams in from
// memory, so A is read exactly once, in address order, a few long contiguous runs at a time (the
// pattern the hardware prefetchers follow best), and everything else (x, partial sums) stays in
// L1. (y = A^T x, whose columns are dot products, runs on the dot kernel, kernels/dot.hpp.)
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/pack_bf16.hpp"
#include "kernels/problem.hpp"
#include "kernels/sweep_parts.hpp"
#include "kernels/with_count.hpp"
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
  // grouping and the split of the rows between threads. While a group streams in, each load may
  // also ask L2 for the same rows of the next group's columns, so more lines are in flight than
  // the hardware prefetchers keep on their own (as the dot kernel does with its next tile,
  // kernels/dot.hpp), on cores where that pays (fetches_ahead, kernels/cache_model.hpp).
  // Measured, sgemv row-major A^T x at 4096 x 4096 and 16384 x 4096 (4096-row columns), 1 and 2
  // threads, against OpenBLAS in the same runs (Zen 4, 32 KiB L1): an 8 KiB block (each column
  // read as two halves at different times) 0.82-0.87x on 1 thread, 16 KiB 0.96-1.04x; 4 columns
  // a pass 0.87-0.95x, 8 columns 0.97-1.04x, 16 columns 0.75-0.91x; with the next group
  // prefetched 1.03-1.20x (28-29 GB/s from DRAM on 1 thread, above the probe's plain read loop),
  // while prefetching 512 or 2048 bytes ahead within each column lost 3-34%.
  static constexpr int kColumns = static_cast<int>(kSweepColumns);

  // y = alpha * A x + beta * y, rows in blocks of row_block, whose sums `t` (row_block elements
  // for each of x's columns) stay in cache; `fetch`: what to ask for ahead of the loads.
  static void run(const GemvProblem<T, SourceA>& p, std::int64_t row_block, SweepFetch fetch,
                  T* t) {
    for (std::int64_t i0 = 0; i0 < p.m; i0 += row_block) {
      const std::int64_t rows = std::min(row_block, p.m - i0);
      sum_rows(p, i0, rows, fetch, t, rows);
      for (std::int64_t c = 0; c < p.columns; ++c)
        finish(rows, 1, t + c * rows, 0, p.alpha, p.beta, p.y + c * p.ldy + i0);
    }
  }

  // sums[0, m) = A x alone, rows in blocks as run's, the sums of x's column c at sums + c *
  // column_stride: one part of the depth (sweep_depth_parts; p's alpha, beta and y unused).
  static void sum(const GemvProblem<T, SourceA>& p, std::int64_t row_block, SweepFetch fetch,
                  T* sums, std::int64_t column_stride) {
    for (std::int64_t i0 = 0; i0 < p.m; i0 += row_block)
      sum_rows(p, i0, std::min(row_block, p.m - i0), fetch, sums + i0, column_stride);
  }

  // y = fma(alpha, s, beta * y) over `rows` elements, the formula of the GEMM tiles, s the sum of
  // `parts` partial sums in order, ((sums_0 + sums_1) + sums_2) ..., sums_q at sums + q * stride;
  // beta = 0 does not read y (NaN already in y does not propagate).
  static void finish(std::int64_t rows, int parts, const T* sums, std::int64_t stride, T alpha,
                     T beta, T* y) {
    const reg alpha_v = V::set1(alpha), beta_v = V::set1(beta);
    for (std::int64_t i = 0; i < rows; i += W) {
      const int lanes = static_cast<int>(std::min<std::int64_t>(W, rows - i));
      reg s = V::load_partial(sums + i, lanes);
      for (int q = 1; q < parts; ++q) s = V::add(s, V::load_partial(sums + q * stride + i, lanes));
      const reg old = beta != 0 ? V::mul(beta_v, V::load_partial(y + i, lanes)) : V::zero();
      V::store_partial(y + i, V::fma(alpha_v, s, old), lanes);
    }
  }

 private:
  // bf16 A is read a pair of rows to a lane as it lies (V::load_pairs) and widened into the
  // floats of its even and of its odd rows by a shift and a mask (V::widen_pairs), where
  // load_bf16's widening is a shuffle, which Zen 4 runs at one 512-bit register every 2 cycles:
  // with A in L3 the sweep ran near that rate. The partial sums t then hold, per step of 2 W
  // rows, the even rows' and then the odd rows' (in_row_order puts them back); each sum still
  // sees the same FMAs in the same order.
  static constexpr bool kPairs = std::is_same_v<SourceA, std::uint16_t>;
  static constexpr int kStep = kPairs ? 2 * W : W;
  // Each bf16 load also asks for its column's bytes a step ahead (its next line on AVX-512), or a
  // kilobyte ahead where A streams from memory against a few columns of x (SweepFetch::far).
  // Measured (Zen 4, 2 threads, alternated), bf16 one row of x times W, GFLOP/s without / a step
  // ahead: 1 x 1024 x 4096 98-104 / 119-124, 1 x 4096 x 4096 75-79 / 92-98 (0.81-0.83 / 0.98-1.04x
  // oneDNN); 128 or 256 bytes gained nothing there, and f32 columns gained nothing. On Zen 5 (32
  // MiB L3, 8 page-strided streams), x oneDNN in the same runs, a step -> a kilobyte ahead, 2
  // threads / 1 thread: 1 x 4096 x 4096 (32 MiB) 0.87-0.90 -> 1.03-1.06 / 0.87-0.89 -> 0.99-1.07, 1
  // x 8192 x 8192 0.93-0.96 -> 0.98-0.99 / 0.82-0.87 -> 0.97-0.99, 1 x 4096 x 11008 0.92-0.93
  // -> 1.03-1.06 / 0.87-0.88 -> 1.00-1.05. Only where repeated calls found most of a 32 MiB W in L3
  // (both libraries at twice the rate) did the step do better: 0.93-0.99 against 0.83-0.97. From L3
  // the kilobyte lost: 1 x 4096 x 2048 (16 MiB) on 2 threads 0.93-0.97 -> 0.89-0.95, 1 x 1024 x
  // 1024 on 1 thread 0.82-0.84 -> 0.69-0.70 (the far requests of the 8 columns in flight, whose
  // lines share L1 sets, cost more than they hide).
  static constexpr std::int64_t kNearAhead = kStep;
  static constexpr std::int64_t kFarAhead = 1024 / std::int64_t{sizeof(SourceA)};

  // t[0, rows) = rows [i0, i0 + rows) of A x, in row order, x's column c into t + c * t_stride.
  static void sum_rows(const GemvProblem<T, SourceA>& p, std::int64_t i0, std::int64_t rows,
                       SweepFetch fetch, T* t, std::int64_t t_stride) {
    for (std::int64_t c = 0; c < p.columns; ++c) std::fill_n(t + c * t_stride, rows, T(0));
    const auto columns = [&]<int N, std::int64_t Ahead>() {
      const SourceA* a = p.a + i0;
      std::int64_t j = 0;
      for (; j + kColumns <= p.n; j += kColumns)
        add_columns<kColumns, N, Ahead>(rows, a + j * p.lda, p.lda, p.x + j * N, t, t_stride,
                                        fetch.next && j + 2 * kColumns <= p.n);
      for (; j < p.n; ++j)
        add_columns<1, N, Ahead>(rows, a + j * p.lda, p.lda, p.x + j * N, t, t_stride, false);
    };
    with_count<kMaxSweepColumns>(p.columns, [&]<int N>() {
      if constexpr (kPairs) {
        if (fetch.far) return columns.template operator()<N, kFarAhead>();
      }
      columns.template operator()<N, kNearAhead>();
    });
    if constexpr (kPairs)
      for (std::int64_t c = 0; c < p.columns; ++c) in_row_order(rows, t + c * t_stride);
  }

  // R vectors of rows of A's Columns columns from a on (lda apart) times x's N columns (x_at),
  // added to their sums t (t_stride apart for each column of x).
  template <int R, int Columns, int N, class XAt>
  [[gnu::always_inline]] static void rows_step(const SourceA* a, std::int64_t lda, const XAt& x_at,
                                               T* t, std::int64_t t_stride, bool prefetch_next) {
    reg acc[R][N];
    RIDGE_UNROLL for (int r = 0; r < R; ++r) {
      RIDGE_UNROLL for (int c = 0; c < N; ++c) acc[r][c] = V::load(t + c * t_stride + r * W);
    }
    RIDGE_UNROLL for (int j = 0; j < Columns; ++j) {
      reg column[R];
      RIDGE_UNROLL for (int r = 0; r < R; ++r) {
        if (prefetch_next) __builtin_prefetch(a + (Columns + j) * lda + r * W, 0, 2);
        column[r] = load_stored<V>(a + j * lda + r * W);
      }
      RIDGE_UNROLL for (int c = 0; c < N; ++c) {
        const reg xc = x_at(c, j);
        RIDGE_UNROLL for (int r = 0; r < R; ++r) acc[r][c] = V::fma(column[r], xc, acc[r][c]);
      }
    }
    RIDGE_UNROLL for (int r = 0; r < R; ++r) {
      RIDGE_UNROLL for (int c = 0; c < N; ++c) V::store(t + c * t_stride + r * W, acc[r][c]);
    }
  }

  // Each of x's N columns (interleaved: x[j * N + c]) times A's Columns columns from a on, added
  // to its sums (t_stride apart). A's element is loaded and widened once for all of x's
  // columns. With one column x's values are broadcast once, beside its sums in registers; with
  // more, each FMA takes its x from memory (a broadcast load at a fixed offset). bf16 loads ask
  // for their column's elements Ahead elements on.
  template <int Columns, int N, std::int64_t Ahead>
  static void add_columns(std::int64_t rows, const SourceA* a, std::int64_t lda, const T* x, T* t,
                          std::int64_t t_stride, bool prefetch_next) {
    reg xj[N == 1 ? Columns : 1];  // x's values in registers: one column only
    if constexpr (N == 1) {
      RIDGE_UNROLL for (int j = 0; j < Columns; ++j) xj[j] = V::broadcast(x + j);
    }
    const auto x_at = [&](int c, int j) {
      if constexpr (N == 1) {
        return xj[j];
      } else {
        return V::broadcast(x + j * N + c);
      }
    };
    std::int64_t i = 0;
    for (; i + kStep <= rows; i += kStep) {
      if constexpr (kPairs) {
        reg even[N], odd[N];
        RIDGE_UNROLL for (int c = 0; c < N; ++c) {
          even[c] = V::load(t + c * t_stride + i);
          odd[c] = V::load(t + c * t_stride + i + W);
        }
        RIDGE_UNROLL for (int j = 0; j < Columns; ++j) {
          if (prefetch_next) __builtin_prefetch(a + (Columns + j) * lda + i, 0, 2);
          __builtin_prefetch(a + j * lda + i + Ahead, 0, 3);
          reg even_rows, odd_rows;
          V::widen_pairs(V::load_pairs(a + j * lda + i), even_rows, odd_rows);
          RIDGE_UNROLL for (int c = 0; c < N; ++c) {
            const reg xc = x_at(c, j);
            even[c] = V::fma(even_rows, xc, even[c]);
            odd[c] = V::fma(odd_rows, xc, odd[c]);
          }
        }
        RIDGE_UNROLL for (int c = 0; c < N; ++c) {
          V::store(t + c * t_stride + i, even[c]);
          V::store(t + c * t_stride + i + W, odd[c]);
        }
      } else {
        // With two or three columns of x, two vectors of rows a step: each x value broadcast
        // once for both, and twice the independent FMA chains (a column's sums are a chain down
        // A's Columns columns). Measured on the 2-vCPU Xeon guest, sgemm x W on 2 threads,
        // alternated, GFLOP/s, one vector against two: 2 / 3 x 1024 x 1024 61-62 / 67-68 against
        // 73-75 / 78-79, 3 x 2048 x 2048 55 against 63-65, 2 x 512 x 512 66 against 71-75 (dgemm
        // 43-44 against 52); with four columns 110-115 against 94-104 at 1024 x 1024.
        constexpr int R = N == 2 || N == 3 ? 2 : 1;
        if (R == 2 && i + 2 * W <= rows) {
          rows_step<2, Columns, N>(a + i, lda, x_at, t + i, t_stride, prefetch_next);
          i += W;
        } else {
          rows_step<1, Columns, N>(a + i, lda, x_at, t + i, t_stride, prefetch_next);
        }
      }
    }
    if (i < rows) {
      const int lanes = static_cast<int>(rows - i);
      if constexpr (kPairs) {
        const int evens = (lanes + 1) / 2, odds = lanes / 2;
        reg even[N], odd[N];
        RIDGE_UNROLL for (int c = 0; c < N; ++c) {
          even[c] = V::load_partial(t + c * t_stride + i, evens);
          odd[c] = V::load_partial(t + c * t_stride + i + evens, odds);
        }
        RIDGE_UNROLL for (int j = 0; j < Columns; ++j) {
          reg even_rows, odd_rows;
          V::widen_pairs(V::load_pairs_partial(a + j * lda + i, lanes), even_rows, odd_rows);
          RIDGE_UNROLL for (int c = 0; c < N; ++c) {
            const reg xc = x_at(c, j);
            even[c] = V::fma(even_rows, xc, even[c]);
            odd[c] = V::fma(odd_rows, xc, odd[c]);
          }
        }
        RIDGE_UNROLL for (int c = 0; c < N; ++c) {
          V::store_partial(t + c * t_stride + i, even[c], evens);
          V::store_partial(t + c * t_stride + i + evens, odd[c], odds);
        }
      } else {
        reg acc[N];
        RIDGE_UNROLL for (int c = 0; c < N; ++c) acc[c] =
            V::load_partial(t + c * t_stride + i, lanes);
        RIDGE_UNROLL for (int j = 0; j < Columns; ++j) {
          const reg column = load_stored_partial<V>(a + j * lda + i, lanes);
          RIDGE_UNROLL for (int c = 0; c < N; ++c) acc[c] = V::fma(column, x_at(c, j), acc[c]);
        }
        RIDGE_UNROLL for (int c = 0; c < N; ++c)
            V::store_partial(t + c * t_stride + i, acc[c], lanes);
      }
    }
  }

  // t's sums of even and odd rows (kPairs) back in row order, a step at a time (a last, shorter
  // step of b rows holds its ceil(b / 2) even rows first).
  static void in_row_order(std::int64_t rows, T* t) {
    std::int64_t i = 0;
    for (; i + kStep <= rows; i += kStep) {
      reg step[2];
      V::interleave(V::load(t + i), V::load(t + i + W), step);
      V::store(t + i, step[0]);
      V::store(t + i + W, step[1]);
    }
    if (i < rows) {
      T step[kStep];
      const int lanes = static_cast<int>(rows - i), evens = (lanes + 1) / 2;
      std::copy_n(t + i, lanes, step);
      for (int r = 0; r < lanes; ++r) t[i + r] = step[r % 2 == 0 ? r / 2 : evens + r / 2];
    }
  }
};

}  // namespace ridge::kernels
