// One column of an int8 product against an A of contiguous columns: y = (A - a_zero)(x -
// x_zero), A m x k column-major (the weights of x W, W row-major, for one row x), exact in int32.
// As GEMV's column sweep (kernels/column_sweep.hpp) for float, it streams A once in address
// order, two columns at a time: the traits pair them up row by row as int16 (V::pair_rows) and
// multiply each pair by x's (VPMADDWD), so A is read at one byte an element instead of being
// packed to int16 first. Rows go in blocks whose sums, y itself, stay in cache.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/pack_pairs.hpp"

namespace ridge::kernels {

template <class V, class SourceA, class SourceX>
struct PairColumnSweep {
  using reg = typename V::reg;
  static constexpr int kRows = 2 * V::width;  // a pair_rows step
  // Column pairs whose products are summed in registers before y is read and written.
  static constexpr int kPairs = 4;

  // y[0, m) = sum over the depth, rows in blocks of `row_block` (a multiple of kRows).
  static void run(std::int64_t m, std::int64_t k, const SourceA* a, std::int64_t lda,
                  std::int32_t a_zero, const SourceX* x, std::int32_t x_zero, std::int32_t* y,
                  std::int64_t row_block) {
    const std::int64_t pairs = k / 2;
    for (std::int64_t i0 = 0; i0 < m; i0 += row_block) {
      const std::int64_t rows = std::min(row_block, m - i0), full = rows / kRows * kRows;
      std::fill_n(y + i0, rows, 0);
      std::int64_t s = 0;
      for (; s + kPairs <= pairs; s += kPairs)
        add_pairs<kPairs>(s, full, a + i0, lda, a_zero, x, x_zero, y + i0);
      for (; s < pairs; ++s) add_pairs<1>(s, full, a + i0, lda, a_zero, x, x_zero, y + i0);
      // The rows past the last full step, and an odd last depth: one element at a time.
      for (std::int64_t i = full; i < rows; ++i) {
        std::int32_t sum = 0;
        for (std::int64_t p = 0; p < 2 * pairs; ++p)
          sum = wrap_add(sum, (a[i0 + i + p * lda] - a_zero) * (x[p] - x_zero));
        y[i0 + i] = sum;
      }
      if (pairs * 2 < k) {
        const std::int64_t p = k - 1;
        for (std::int64_t i = 0; i < rows; ++i)
          y[i0 + i] = wrap_add(y[i0 + i], (a[i0 + i + p * lda] - a_zero) * (x[p] - x_zero));
      }
    }
  }

 private:
  static std::int32_t wrap_add(std::int32_t a, std::int32_t b) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
  }

  // y[0, full) += Pairs column pairs from pair s on.
  template <int Pairs>
  static void add_pairs(std::int64_t s, std::int64_t full, const SourceA* a, std::int64_t lda,
                        std::int32_t a_zero, const SourceX* x, std::int32_t x_zero,
                        std::int32_t* y) {
    reg xs[Pairs];
    for (int q = 0; q < Pairs; ++q) {
      const std::int64_t p = 2 * (s + q);
      const std::int32_t pair = int16_pair(x[p] - x_zero, x[p + 1] - x_zero);
      xs[q] = V::broadcast(&pair);
    }
    for (std::int64_t i = 0; i < full; i += kRows) {
      reg sums[2] = {V::load(y + i), V::load(y + i + V::width)};
      for (int q = 0; q < Pairs; ++q) {
        const SourceA* even = a + i + 2 * (s + q) * lda;
        reg rows[2];
        V::pair_rows(even, even + lda, a_zero, rows);
        sums[0] = V::fma(rows[0], xs[q], sums[0]);
        sums[1] = V::fma(rows[1], xs[q], sums[1]);
      }
      V::store(y + i, sums[0]);
      V::store(y + i + V::width, sums[1]);
    }
  }
};

}  // namespace ridge::kernels
