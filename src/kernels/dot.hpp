// GEMM as dot products, for an A whose rows are contiguous along the depth against a narrow B:
// row-major y = x W^T with a skinny x (LLM decoding through a linear layer, W stored [out][in]).
// Each C element is the dot product of a row of A and a column of B, vectorised along the depth
// and summed across lanes once at the end. A is not packed: it streams from memory once, a few
// rows at a time, while the narrow B, copied with its columns contiguous, stays in L2. The GEMM's
// tile loops (gemm/loops.hpp) would instead transpose A into column order at every depth slice.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/pack_bf16.hpp"
#include "kernels/problem.hpp"
#include "kernels/vector_kernels.hpp"
#include "kernels/with_count.hpp"
#include "simd/unroll.hpp"

namespace ridge::kernels {

// SourceA: A's stored type, V::scalar or (V of floats) bf16 bit patterns; B likewise, widened
// as run() copies it. A step reads A in one of three forms (Form):
//  - elements: W of a row's elements in order (bf16 widened as loaded, load_bf16);
//  - even_odd, for bf16 against one column (x W^T with one row of x, GEMV's A^T x): 2 W
//    elements, a pair to a lane as they lie (V::load_pairs), each register widened into the
//    floats of its even and of its odd elements by a shift and a mask (V::widen_pairs), B
//    copied in the same order (each step's W even elements, then its W odd ones). Widening W
//    elements in order is a shuffle across the register. Measured, bf16 x W^T 1 x 4096 x 1024
//    (W in L3) / 1 x 4096 x 4096, alternated, two runs: Zen 4 AVX-512, 2 threads, 100-104 /
//    85-97 -> 107-108 / 89-95 GFLOP/s (1 thread at 1024: 52.5 -> 55.7-56.0); AVX2 forced, 1
//    thread, 43.3 / 38-39 -> 48.8-48.9 / 40-42. Against several columns the rows' even and odd
//    registers do not fit beside the tile's sums (6 x 4 on AVX-512): x W^T 8 / 24 x 4096 x 4096
//    on 1 thread ran 99-102 / 107 GFLOP/s in order, 95-96 / 100-101 so;
//  - pairs, with Pairs the traits of bf16 pairs (simd/avx512_bf16.hpp): 2 W elements as they
//    lie against B's pairs as they lie, both products of a lane summed by Pairs::fma
//    (VDPBF16PS), with its rule for subnormals, as the tiles on those traits.
template <class V, int Rows, int MaxColumns, class SourceA = typename V::scalar, class Pairs = void>
struct Dot {
  using T = typename V::scalar;
  using reg = typename V::reg;
  static constexpr int W = V::width;
  enum class Form { elements, even_odd, pairs };
  static constexpr Form kForm = !std::is_void_v<Pairs> ? Form::pairs
                                : std::is_same_v<SourceA, std::uint16_t> && MaxColumns == 1
                                    ? Form::even_odd
                                    : Form::elements;
  static constexpr int kStep = kForm == Form::elements ? W : 2 * W;  // the depth of a step

  // C[0:rows, 0:Columns] = alpha * A B + beta * C; A rows a + r * a_rs, B columns b + j * b_cs,
  // both contiguous along the k depth. A tile of fewer than Rows rows repeats its last row in
  // the spare accumulators and does not store them, so nothing outside A is read.
  // next_tile: if nonzero, each step also prefetches (into L2) the same depth of the rows that
  // many elements further on: the next tile's rows, which then arrive while this one computes.
  template <int Columns>
  static void tile(std::int64_t k, const SourceA* a, std::int64_t a_rs, int rows, const T* b,
                   std::int64_t b_cs, T* c, std::int64_t ldc, T alpha, T beta,
                   std::int64_t next_tile) {
    const SourceA* row[Rows];
    RIDGE_UNROLL for (int r = 0; r < Rows; ++r) row[r] = a + std::min(r, rows - 1) * a_rs;
    reg acc[Rows][Columns];
    RIDGE_UNROLL for (int r = 0; r < Rows; ++r) {
      RIDGE_UNROLL for (int j = 0; j < Columns; ++j) acc[r][j] = V::zero();
    }
    // Depths [p, p + depth), depth <= kStep.
    const auto step = [&](std::int64_t p, int depth) {
      if constexpr (kForm == Form::even_odd) {
        // One column: its even and odd floats, each row's pairs widened against them.
        const reg even_b = V::load(b + p), odd_b = V::load(b + p + W);
        RIDGE_UNROLL for (int r = 0; r < Rows; ++r) {
          reg even, odd;
          V::widen_pairs(load_row(row[r] + p, depth), even, odd);
          if (next_tile != 0) __builtin_prefetch(row[r] + next_tile + p, 0, 2);
          acc[r][0] = V::fma(odd, odd_b, V::fma(even, even_b, acc[r][0]));
        }
      } else {
        reg av[Rows];
        RIDGE_UNROLL for (int r = 0; r < Rows; ++r) {
          av[r] = load_row(row[r] + p, depth);
          if (next_tile != 0) __builtin_prefetch(row[r] + next_tile + p, 0, 2);
        }
        RIDGE_UNROLL for (int j = 0; j < Columns; ++j) {
          // B's copy: a float an element, or a pair to a float's slot, whole to the last step.
          const T* column = b + j * b_cs + (kForm == Form::pairs ? p / 2 : p);
          const reg bj =
              kForm == Form::pairs || depth == W ? V::load(column) : V::load_partial(column, depth);
          RIDGE_UNROLL for (int r = 0; r < Rows; ++r) {
            if constexpr (kForm == Form::pairs) {
              acc[r][j] = Pairs::fma(av[r], bj, acc[r][j]);
            } else {
              acc[r][j] = V::fma(av[r], bj, acc[r][j]);
            }
          }
        }
      }
    };
    std::int64_t p = 0;
    for (; p + kStep <= k; p += kStep) step(p, kStep);
    if (p < k) step(p, static_cast<int>(k - p));

    // The same formula as the tile kernels: C = fma(alpha, AB, beta * C), rounded as V::fma
    // rounds (twice on the portable traits, which have no fused form), so that a product gets
    // the same bits on this path as on the tiles'; beta = 0 reads no C.
    for (int r = 0; r < rows; ++r) {
      RIDGE_UNROLL for (int j = 0; j < Columns; ++j) {
        T* cij = c + r + j * ldc;
        const T old = beta != 0 ? beta * *cij : T(0);
        const T ab = V::reduce_add(acc[r][j]);
        *cij = V::fused_fma ? std::fma(alpha, ab, old) : alpha * ab + old;
      }
    }
  }

  // `depth` <= kStep elements of a row of A from p on, in kForm's form (pairs as they lie for
  // both forms of pairs).
  static reg load_row(const SourceA* p, int depth) {
    if constexpr (kForm != Form::elements) {
      return depth == kStep ? V::load_pairs(p) : V::load_pairs_partial(p, depth);
    } else {
      return depth == W ? load_stored<V>(p) : load_stored_partial<V>(p, depth);
    }
  }

  // B is first copied to `b` (dot_workspace_elements(k, n, W) elements), its columns one vector
  // more than the depth apart, from any layout (x^T stored, its rows contiguous, as well). In
  // place, its columns (the rows of x, ldx apart) and the rows of A (W, ldw apart) are often a
  // multiple of the L1 way size apart, so the dozen streams of a tile would all fall into one L1
  // set and evict each other at every step. Measured, 8 x 4096 x 4096 row-major x W^T, 1 thread
  // (AVX-512, Zen 4): 28 GFLOP/s in place.
  // Then row tiles outer, so A is read once; columns in as few groups as MaxColumns allows, of
  // sizes that differ by at most one, inner, each rereading the tile's rows (at 4096 floats deep,
  // twice L1) and its columns of B from L2. Groups halved down from MaxColumns (3 columns as 2 +
  // 1, 7 as 4 + 2 + 1) took a pass more over the rows. Measured on the 2-vCPU Xeon guest, sgemm
  // M x 4096 x 4096 x W^T on 2 threads, alternated, GFLOP/s, halved against balanced: AVX-512
  // (6 x 4 tiles) M = 3 / 5 / 7 / 9 / 13 53-58 / 78-94 / 85-97 / 91-105 / 101-116 against 70-74
  // / 81-91 / 102-111 / 109-115 / 116-131 (oneDNN 68-73 at M = 3; dgemm M = 3 / 7 18-21 /
  // 31-34 against 27-29 / 42); AVX2 (3 x 4 tiles) 49-53 / 75-88 / 81-91 / 99-107 / 102-106
  // against 70-71 / 68-79 / 108-111 / 98-110 / 108-110, M = 5 the one loss (3 + 2 against 4 + 1).
  // prefetch: each tile fetches the next one's rows (A streams from memory and the core gains
  // from it: fetches_ahead in kernels/cache_model.hpp).
  template <class SourceB>
  static void run(const GemmProblem<T, SourceA, SourceB>& p, bool prefetch, T* b) {
    // Whole steps of 2 W fit: dot_column_stride rounds k up to W and adds W.
    const std::int64_t ldb = dot_column_stride(p.k, W);
    for (std::int64_t j = 0; j < p.n; ++j) {
      const SourceB* column = p.b + j * p.b_cs;
      const auto at = [&](std::int64_t q) { return column[q * p.b_rs]; };
      T* copy = b + j * ldb;
      if constexpr (kForm == Form::pairs) {
        static_assert(std::is_same_v<SourceB, std::uint16_t>, "B as bf16 pairs");
        for (std::int64_t q = 0; q < p.k; q += kStep)
          for (std::int64_t e = q; e < q + kStep; e += 2) {
            const std::uint32_t pair =
                Pairs::pair(e < p.k ? at(e) : 0, e + 1 < p.k ? at(e + 1) : 0);
            std::memcpy(copy + e / 2, &pair, sizeof(pair));
          }
      } else if constexpr (kForm == Form::even_odd) {
        for (std::int64_t q0 = 0; q0 < p.k; q0 += kStep)
          for (int e = 0; e < kStep; ++e)
            copy[q0 + e % 2 * W + e / 2] = q0 + e < p.k ? stored_value<T>(at(q0 + e)) : T(0);
      } else {
        for (std::int64_t q = 0; q < p.k; ++q) copy[q] = stored_value<T>(at(q));
      }
    }
    for (std::int64_t i = 0; i < p.m; i += Rows) {
      const int rows = static_cast<int>(std::min<std::int64_t>(Rows, p.m - i));
      // The first column group fetches the next tile's rows; later groups find this one's in L1
      // or L2.
      const std::int64_t next_tile = prefetch && i + 2 * Rows <= p.m ? Rows * p.a_rs : 0;
      column_groups(p, i, rows, b, ldb, next_tile);
    }
  }

  // The columns of the row tile at row i.
  template <class Problem>
  static void column_groups(const Problem& p, std::int64_t i, int rows, const T* b,
                            std::int64_t ldb, std::int64_t next_tile) {
    const auto group = [&]<int Columns>(std::int64_t j) {
      tile<Columns>(p.k, p.a + i * p.a_rs, p.a_rs, rows, b + j * ldb, ldb, p.c + i + j * p.ldc,
                    p.ldc, p.alpha, p.beta, next_tile);
      next_tile = 0;  // the first group fetches the next tile's rows
    };
    const std::int64_t groups = (p.n + MaxColumns - 1) / MaxColumns;
    for (std::int64_t g = 0, j = 0; g < groups; ++g) {
      const std::int64_t columns = (p.n - j + groups - g - 1) / (groups - g);
      with_count<MaxColumns>(columns,
                             [&]<int Columns>() { group.template operator()<Columns>(j); });
      j += columns;
    }
  }
};

}  // namespace ridge::kernels
