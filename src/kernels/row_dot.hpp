// A few columns of an int8 product against an A of contiguous rows: C = (A - a_zero)(X - x_zero),
// A m x k with rows lda apart (the weights of x W^T, W row-major as a linear layer stores them,
// for a few rows x, X's columns), exact modulo 2^32 as the tiles' sums. Each element of C is the
// dot product of a row of A with a column of X, on the int8 kernels' traits:
//  - quads (simd/avx512_int8_quads.hpp): a vector of a row's bytes as it lies is 16 quads, and
//    VPDPBUSD adds their 64 products by a column's bytes (stored as B's packing stores them,
//    unsigned) to 16 sums; the zero points are corrected from the row's and the column's sums;
//  - int16 pairs (simd/*_int16_pairs.hpp): a vector of a row's bytes widened, less its zero
//    point, is pairs of int16 in order, and VPMADDWD adds their products by the column's pairs
//    (copied as int16 less its zero point) to the sums: exact, nothing to correct.
// A is read once, a few rows at a time, in place, each tile of rows reused from L1 by every
// group of columns; the packed path would transpose it into panels first (u8s8 1 x 4096 x 4096
// on 2 threads, Zen 4: 0.2x oneDNN so; AVX2's pairs, 0.08x).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/pack_pairs.hpp"
#include "kernels/pack_quads.hpp"
#include "simd/unroll.hpp"

namespace ridge::kernels {

template <class V, class SourceX>
struct RowDot {
  using reg = typename V::reg;
  static constexpr bool kQuads = V::depth_group == 4;
  static constexpr int kElements = V::depth_group * V::width;  // a step's elements of a row
  // Rows a step: as many streams of A in flight, each with its own sums.
  static constexpr int kRows = 4;
  // Columns of X a step: kRows x kColumns sums beside A's and X's registers, in AVX-512's 32
  // registers 4 x 4, in the 16 of AVX2 and the portable traits' SSE2 4 x 2.
  static constexpr int kColumns = sizeof(reg) >= 64 ? 4 : 2;

  // A column of X as run() copies it: 32-bit words of depth_group elements (bytes or int16),
  // zero-padded to whole steps.
  static constexpr std::int64_t column_words(std::int64_t k) {
    return (k + kElements - 1) / kElements * V::width;
  }
  // The workspace run() needs for n columns of depth k: the columns, then their sums.
  static constexpr std::int64_t workspace_bytes(std::int64_t k, std::int64_t n) {
    return n * (column_words(k) + 1) * std::int64_t{sizeof(std::int32_t)};
  }

  // C[0:m, 0:n] (columns ldc apart) = sum_p (a[i * lda + p] - a_zero)(x[p + j * ldx] - x_zero).
  // work: workspace_bytes(k, n) bytes, 4-byte aligned.
  static void run(std::int64_t m, std::int64_t n, std::int64_t k, const std::int8_t* a,
                  std::int64_t lda, std::int32_t a_zero, const SourceX* x, std::int64_t ldx,
                  std::int32_t x_zero, std::int32_t* c, std::int64_t ldc, std::uint8_t* work) {
    const std::int64_t stride = column_words(k);
    auto* const columns = reinterpret_cast<std::int32_t*>(work);
    auto* const fixed = reinterpret_cast<std::uint32_t*>(columns + n * stride);
    // Quads: X's columns as B's packing stores them (int8 plus 128, its zero point with it), and
    // the part of each column's correction that its sum gives; row sums where zx needs them.
    // Pairs: the columns less their zero point, and nothing to correct.
    std::uint32_t zx = 0;
    if constexpr (kQuads)
      zx = static_cast<std::uint32_t>(x_zero) + (std::is_signed_v<SourceX> ? 128 : 0);
    const std::uint32_t za = static_cast<std::uint32_t>(a_zero);
    for (std::int64_t j = 0; j < n; ++j) {
      const SourceX* from = x + j * ldx;
      std::int32_t* column = columns + j * stride;
      if constexpr (kQuads) {
        auto* bytes = reinterpret_cast<std::uint8_t*>(column);
        std::uint32_t sum = 0;
        for (std::int64_t p = 0; p < k; ++p) {
          bytes[p] = static_cast<std::uint8_t>(unsigned_byte(from[p]));
          sum += bytes[p];
        }
        std::fill(bytes + k, bytes + 4 * stride, std::uint8_t{0});
        // sum (A - za)(x - zx) = sum A x - zx sum A - za sum x + k za zx, modulo 2^32.
        fixed[j] = static_cast<std::uint32_t>(k) * za * zx - za * sum;
      } else {
        const auto element = [&](std::int64_t p) { return p < k ? from[p] - x_zero : 0; };
        for (std::int64_t w = 0; w < stride; ++w)
          column[w] = int16_pair(element(2 * w), element(2 * w + 1));
        fixed[j] = 0;
      }
    }
    for (std::int64_t i = 0; i < m; i += kRows) {
      const int rows = static_cast<int>(std::min<std::int64_t>(kRows, m - i));
      // A tile of fewer rows repeats its last row, whose sums it does not store.
      const std::int8_t* row[kRows];
      for (int r = 0; r < kRows; ++r) row[r] = a + (i + std::min(r, rows - 1)) * lda;
      // The first group of columns fetches the next tile's rows, a line a step, and sums this
      // tile's rows; the later ones find the rows in L1.
      const std::int64_t next = i + 2 * kRows <= m ? kRows * lda : 0;
      std::uint32_t row_sums[kRows] = {};
      std::int64_t j = 0;
      for (; n - j >= kColumns; j += kColumns)
        tile<kColumns>(k, row, next, a_zero, zx, j == 0, columns + j * stride, stride, row_sums,
                       fixed + j, rows, c + i + j * ldc, ldc);
      for (; j < n; ++j)
        tile<1>(k, row, next, a_zero, zx, j == 0, columns + j * stride, stride, row_sums, fixed + j,
                rows, c + i + j * ldc, ldc);
    }
  }

 private:
  // `elements` <= kElements of a row from p on: quads as they lie, or pairs less the zero point.
  static reg load_row(const std::int8_t* p, int elements, std::int32_t zero) {
    if constexpr (kQuads) {
      return elements == kElements ? V::load_quads(p) : V::load_quads_partial(p, elements);
    } else {
      if (elements == kElements) return V::row_pairs(p, zero);
      std::int8_t padded[kElements] = {};
      std::memcpy(padded, p, static_cast<std::size_t>(elements));
      return V::row_pairs(padded, zero);  // its zeros less the zero point meet X's zeros
    }
  }

  // Rows row[0, rows) against Columns columns (stride words apart); the tile's first group also
  // fetches the next tile's rows and sums its rows into row_sums (where zx needs them), which
  // later groups then use.
  template <int Columns>
  static void tile(std::int64_t k, const std::int8_t* const (&row)[kRows], std::int64_t next,
                   std::int32_t a_zero, std::uint32_t zx, bool first, const std::int32_t* columns,
                   std::int64_t stride, std::uint32_t (&row_sums)[kRows],
                   const std::uint32_t* fixed, int rows, std::int32_t* c, std::int64_t ldc) {
    reg products[kRows][Columns], sums[kRows];
    RIDGE_UNROLL for (int r = 0; r < kRows; ++r) {
      sums[r] = V::zero();
      RIDGE_UNROLL for (int j = 0; j < Columns; ++j) products[r][j] = V::zero();
    }
    const std::int64_t ahead = first ? next : 0;
    // Elements [p, p + elements) of the rows, elements <= kElements, and with_sums (a
    // std::bool_constant) whether to add them into sums. The loop's forms are chosen once per
    // tile: with its tests inside, GCC kept the sums in memory and branched per row (u8s8 x W^T
    // on 1 thread, Zen 4: 1 / 4 x 4096 x 4096 82-86 / 148-153 GOP/s so, 113-116 / 328-329 now).
    const auto step = [&](auto with_sums, std::int64_t p, int elements) {
      reg xv[Columns];
      RIDGE_UNROLL for (int j = 0; j < Columns; ++j) {
        xv[j] = V::load(columns + j * stride + p / V::depth_group);
      }
      RIDGE_UNROLL for (int r = 0; r < kRows; ++r) {
        if (ahead != 0) __builtin_prefetch(row[r] + ahead + p, 0, 2);
        const reg av = load_row(row[r] + p, elements, a_zero);
        RIDGE_UNROLL for (int j = 0; j < Columns; ++j) {
          products[r][j] = V::fma(av, xv[j], products[r][j]);
        }
        if constexpr (decltype(with_sums)::value) sums[r] = V::add_signed_quads(sums[r], av);
      }
    };
    const auto steps = [&](auto with_sums) {
      std::int64_t p = 0;
      for (; p + kElements <= k; p += kElements) step(with_sums, p, kElements);
      if (p < k) step(with_sums, p, static_cast<int>(k - p));
    };
    if constexpr (kQuads) {
      if (first && zx != 0) {
        steps(std::true_type{});
        V::sum_lanes(sums, row_sums);
      } else {
        steps(std::false_type{});
      }
    } else {
      steps(std::false_type{});  // pairs: nothing to correct
    }
    RIDGE_UNROLL for (int j = 0; j < Columns; ++j) {
      reg column[kRows];
      RIDGE_UNROLL for (int r = 0; r < kRows; ++r) column[r] = products[r][j];
      std::uint32_t dots[kRows];
      V::sum_lanes(column, dots);
      for (int r = 0; r < rows; ++r)
        c[r + j * ldc] = std::bit_cast<std::int32_t>(dots[r] - zx * row_sums[r] + fixed[j]);
    }
  }
};

}  // namespace ridge::kernels
