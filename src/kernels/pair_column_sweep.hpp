// A few columns of an int8 product against an A of contiguous columns: Y = (A - a_zero)(X -
// x_zero), A m x k column-major (the weights of x W, W row-major, for a few rows x), exact in
// int32. As GEMV's column sweep (kernels/column_sweep.hpp) for float, it streams A once in address
// order, two columns at a time: the traits pair them up row by row as int16 (V::pair_rows) and
// multiply each pair by each of X's columns' (VPMADDWD), so A is read once, at one byte an
// element, for all of X's columns instead of being packed to int16 first. Rows go in blocks
// whose sums, Y itself, stay in cache.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/pack_pairs.hpp"
#include "kernels/sweep_parts.hpp"
#include "kernels/with_count.hpp"
#include "simd/unroll.hpp"

namespace ridge::kernels {

template <class V, class SourceA, class SourceX>
struct PairColumnSweep {
  using reg = typename V::reg;
  static constexpr int kRows = 2 * V::width;  // a pair_rows step
  // Column pairs whose products are summed in registers before Y is read and written.
  static constexpr int kPairs = 4;

  // Y[0, m) = sum over the depth for X's `columns` columns (at most kMaxInt8SweepColumns; X's ldx
  // apart, Y's ldy), rows in blocks of `row_block` (a multiple of kRows).
  static void run(std::int64_t m, std::int64_t k, const SourceA* a, std::int64_t lda,
                  std::int32_t a_zero, const SourceX* x, std::int64_t ldx, std::int32_t x_zero,
                  std::int32_t* y, std::int64_t ldy, std::int64_t columns, std::int64_t row_block) {
    with_count<kMaxInt8SweepColumns>(columns, [&]<int N>() {
      const Operands o{a, lda, a_zero, x, ldx, x_zero, y, ldy};
      const std::int64_t pairs = k / 2;
      for (std::int64_t i0 = 0; i0 < m; i0 += row_block) {
        const std::int64_t rows = std::min(row_block, m - i0), full = rows / kRows * kRows;
        const Operands block = o.rows_from(i0);
        for (int c = 0; c < N; ++c) std::fill_n(block.y + c * ldy, rows, 0);
        std::int64_t s = 0;
        for (; s + kPairs <= pairs; s += kPairs) add_pairs<kPairs, N>(s, full, block);
        for (; s < pairs; ++s) add_pairs<1, N>(s, full, block);
        for (int c = 0; c < N; ++c) {
          const SourceX* xc = x + c * ldx;
          std::int32_t* yc = block.y + c * ldy;
          // The rows past the last full step, and an odd last depth: one element at a time.
          for (std::int64_t i = full; i < rows; ++i) {
            std::int32_t sum = 0;
            for (std::int64_t p = 0; p < 2 * pairs; ++p)
              sum = wrap_add(sum, (block.a[i + p * lda] - a_zero) * (xc[p] - x_zero));
            yc[i] = sum;
          }
          if (pairs * 2 < k) {
            const std::int64_t p = k - 1;
            for (std::int64_t i = 0; i < rows; ++i)
              yc[i] = wrap_add(yc[i], (block.a[i + p * lda] - a_zero) * (xc[p] - x_zero));
          }
        }
      }
    });
  }

 private:
  struct Operands {
    const SourceA* a;
    std::int64_t lda;
    std::int32_t a_zero;
    const SourceX* x;
    std::int64_t ldx;
    std::int32_t x_zero;
    std::int32_t* y;
    std::int64_t ldy;
    Operands rows_from(std::int64_t i0) const {
      Operands o = *this;
      o.a += i0;
      o.y += i0;
      return o;
    }
  };

  static std::int32_t wrap_add(std::int32_t a, std::int32_t b) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
  }

  // Y[0, full) += Pairs column pairs from pair s on, for X's N columns. With one column the
  // pairs of x values are registers; with more, broadcasts from a small array (which GCC hoists
  // out of the row loop and partly spills; keeping it from that measured level:
  // docs/notes/few-rows-column-sweep-2026-12-05.md).
  template <int Pairs, int N>
  static void add_pairs(std::int64_t s, std::int64_t full, const Operands& o) {
    std::int32_t pair[Pairs][N];
    RIDGE_UNROLL for (int q = 0; q < Pairs; ++q) RIDGE_UNROLL for (int c = 0; c < N; ++c) {
      const SourceX* xc = o.x + c * o.ldx + 2 * (s + q);
      pair[q][c] = int16_pair(xc[0] - o.x_zero, xc[1] - o.x_zero);
    }
    reg xs[Pairs];
    if constexpr (N == 1) {
      RIDGE_UNROLL for (int q = 0; q < Pairs; ++q) xs[q] = V::broadcast(&pair[q][0]);
    }
    for (std::int64_t i = 0; i < full; i += kRows) {
      reg sums[N][2];
      RIDGE_UNROLL for (int c = 0; c < N; ++c) {
        sums[c][0] = V::load(o.y + c * o.ldy + i);
        sums[c][1] = V::load(o.y + c * o.ldy + i + V::width);
      }
      RIDGE_UNROLL for (int q = 0; q < Pairs; ++q) {
        const SourceA* even = o.a + i + 2 * (s + q) * o.lda;
        reg rows[2];
        V::pair_rows(even, even + o.lda, o.a_zero, rows);
        RIDGE_UNROLL for (int c = 0; c < N; ++c) {
          const reg xq = N == 1 ? xs[q] : V::broadcast(&pair[q][c]);
          sums[c][0] = V::fma(rows[0], xq, sums[c][0]);
          sums[c][1] = V::fma(rows[1], xq, sums[c][1]);
        }
      }
      RIDGE_UNROLL for (int c = 0; c < N; ++c) {
        V::store(o.y + c * o.ldy + i, sums[c][0]);
        V::store(o.y + c * o.ldy + i + V::width, sums[c][1]);
      }
    }
  }
};

}  // namespace ridge::kernels
