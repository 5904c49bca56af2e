// Packing: copies a block of A or B into the contiguous micro-panel order the micro-kernel
// streams, zero-padding partial panels so the kernel never needs a masked load on packed data.
// Templates on the traits V, instantiated in each ISA's translation units like the micro-kernel.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/pack_bf16.hpp"
#include "kernels/transpose_blocks.hpp"
#include "simd/cache_line.hpp"
#include "simd/unroll.hpp"

namespace ridge::kernels {

// A block rows [0, m) x depth [0, kc), element (i, p) at a[i * rs + p * cs], into
// ceil(m / MR) micro-panels, each [kc][MR]: dst[panel * kc * MR + p * MR + i]. Source: A's
// stored type, V::scalar or (V of floats) bf16 bit patterns, widened as packed (load_stored).
template <class V, int MR, class Source>
void pack_a(std::int64_t m, std::int64_t kc, const Source* a, std::int64_t rs, std::int64_t cs,
            typename V::scalar* dst) {
  using T = typename V::scalar;
  constexpr int W = V::width;
  static_assert(MR % W == 0);
  if (rs == 1) {
    // Column-contiguous A: depth outermost, so each column's m elements are read in one
    // sequential run and scattered to the panels, eight columns at a time: eight runs in flight
    // keep more lines coming from memory. Packing a 928 x 596 block of a cold 4096-row matrix:
    // 9 GB/s one column at a time, 16 with four, 19 with eight, 11 with sixteen (their lines
    // share one L1 set when the stride is a multiple of 4 KiB). Panel-outer order would read MR
    // elements from each of kc columns lda apart -- a page apart once lda >= 1024 floats --
    // which the hardware prefetchers do not follow. Each panel's piece of the eight runs also
    // asks L2 for the same piece of the next eight (the prefetchers start each run late, and
    // int8's are 16 lines long). Measured on Zen 4, 2 threads, row-major, alternated with the
    // packing without it, three runs: u8s8 4096^3 869-878 -> 879-885 GOP/s (pack_quads_a 2.4 ->
    // 1.9% of the samples), bf16 438-439 -> 441 GFLOP/s and 512 x 4096 x 11008 425-430 ->
    // 428-436, sgemm 4096^3 218-220 -> 221-222; 1000^3 and the other sizes of the default sweep
    // level.
    constexpr std::int64_t kColumns = 8;
    for (std::int64_t p0 = 0; p0 < kc; p0 += kColumns) {
      const std::int64_t columns = kc - p0 < kColumns ? kc - p0 : kColumns;
      const std::int64_t ahead_end = p0 + 2 * kColumns < kc ? p0 + 2 * kColumns : kc;
      for (std::int64_t i0 = 0; i0 < m; i0 += MR) {
        const std::int64_t rows = m - i0 < MR ? m - i0 : MR;
        for (std::int64_t p = p0 + columns; p < ahead_end; ++p)
          simd::prefetch_run(a + i0 + p * cs, rows);
        T* panel = dst + i0 * kc + p0 * MR;
        for (std::int64_t g = 0; g < columns; ++g) {
          const Source* col = a + (p0 + g) * cs + i0;
          RIDGE_UNROLL for (int i = 0; i < MR; i += W) {
            const std::int64_t left = m - i0 - i;
            const typename V::reg v =
                left >= W  ? load_stored<V>(col + i)
                : left > 0 ? load_stored_partial<V>(col + i, static_cast<int>(left))
                           : V::zero();
            V::store(panel + g * MR + i, v);
          }
        }
      }
    }
    return;
  }
  // Row-contiguous (transposed) A: a transposition, four rows by four depths at a time with
  // vector shuffles (A stored as T); general strides: row by row.
  for (std::int64_t i0 = 0; i0 < m; i0 += MR, dst += kc * MR) {
    const int rows = static_cast<int>(m - i0 < MR ? m - i0 : MR);
    const std::int64_t kc4 = std::is_same_v<Source, T> && cs == 1 ? kc / 4 * 4 : 0;
    int i = 0;
    if (kc4 > 0) {
      if constexpr (std::is_same_v<Source, T>) {
        i = rows / 4 * 4;
        transpose_blocks<V, TransposeOrder::lines_outer>(a + i0 * rs, rs, i, kc4, dst, MR);
      }
    }
    for (int ii = 0; ii < rows; ++ii) {
      const Source* row = a + (i0 + ii) * rs;
      for (std::int64_t p = ii < i ? kc4 : 0; p < kc; ++p)
        dst[p * MR + ii] = stored_value<T>(row[p * cs]);
    }
    for (int ii = rows; ii < MR; ++ii)
      for (std::int64_t p = 0; p < kc; ++p) dst[p * MR + ii] = T(0);
  }
}

// pack_a of a column-contiguous A block (rs == 1) in steps of one vector, to be run between
// the FMAs of the micro-kernel's k loops (its side work, kernels/microkernel.hpp) while they
// work on the block before: the block's reads from memory then overlap those products instead
// of coming between them. It copies the block's full panels (rows [0, m / MR * MR)) column by
// column, each column one sequential run, the order the hardware prefetchers follow; the rows
// past them (the last, partial panel) are left to pack_a (finish()).
//
// Each k loop may take `quota` steps (granted by the caller, so that the copy spreads over all
// the block's tiles); finish() copies what they left. Source: A's stored type, T or (T float)
// bf16 bit patterns, widened as copied.
template <class V, int MR, class Source = typename V::scalar>
struct PackAInSteps {
  using T = typename V::scalar;
  static constexpr int W = V::width;
  static constexpr int kPanelVectors = MR / W;
  // Each step fetches two lines into L2. One is the line it will copy kAheadVectors steps later,
  // in whole columns: the same place in the column ahead_columns further on, so that every line
  // of a column has been asked for by the time the copy reaches it. The hardware prefetchers miss
  // those lines: each column is a short run (a block of 288 rows is 1152 bytes of floats) a page
  // or more from the last. 64 steps of 12 cycles (a 32 x 12 float tile on two FMA pipes) are
  // about 170 ns at 4.5 GHz, past a trip to memory. The other is kLinesAhead lines further down
  // the column: ahead in a long run, and past a short one into the same column of the next
  // block's rows, which the copy reads a block later. Measured on Zen 5, M x 4096 x 4096
  // row-major, 2 threads, x oneDNN, alternated, two rounds each, against the line kLinesAhead
  // ahead with the first 4 lines of the column 2 further on: AVX-512 sgemm (blocks of 288 rows,
  // 18 steps a column) M = 32 / 48 / 64 / 128 0.75-0.87 / 0.84-0.94 / 0.75-0.78 / 0.92-0.93 ->
  // 1.04-1.05 / 0.95-0.98 / 0.94-0.96 / 1.00-1.02 (the column ahead alone: about the same);
  // held to AVX2 (blocks of 64 rows, 4 lines a column), the column ahead alone lost a third at
  // M = 32 (135-165 against 188-220 GFLOP/s at 64 to 256 steps ahead), both level with the
  // lines ahead alone.
  static constexpr std::int64_t kAheadVectors = 64;
  static constexpr int kLinesAhead = 8;

  const Source* a = nullptr;  // the block's source
  T* panels = nullptr;   // where pack_a would put it
  std::int64_t m = 0, kc = 0, cs = 0;
  std::int64_t column_vectors = 0;  // vectors copied per column: the full panels' rows
  std::int64_t left = 0;            // vectors not yet granted to a k loop
  // The cursor: next vector's source and destination, vectors left in its column and panel.
  std::int64_t column = 0;
  const Source* src = nullptr;
  T* dst = nullptr;
  std::int64_t column_left = 0;
  int panel_left = 0;
  std::int64_t quota = 0;  // vectors the running k loop may still copy
  std::int64_t ahead_columns = 0;
  std::int64_t ahead = 0;  // from src to the line fetched (0 in the block's last columns)

  PackAInSteps() = default;
  PackAInSteps(std::int64_t m, std::int64_t kc, const Source* a, std::int64_t cs, T* panels)
      : a(a),
        panels(panels),
        m(m),
        kc(kc),
        cs(cs),
        column_vectors(m / MR * kPanelVectors),
        left(column_vectors * kc),
        ahead_columns(column_vectors > 0 ? (kAheadVectors + column_vectors - 1) / column_vectors
                                         : 0) {
    if (left > 0) start_column(0);
  }

  // Lets the next k loop copy up to `vectors`; returns what it did not use to the pool after.
  void grant(std::int64_t vectors) {
    quota = vectors < left ? vectors : left;
    left -= quota;
  }
  void take_back() {
    left += quota;
    quota = 0;
  }

  [[gnu::always_inline]] void step() {
    if (quota == 0) return;
    --quota;
    __builtin_prefetch(src + ahead, 0, 2);
    __builtin_prefetch(src + kLinesAhead * simd::kLineElements<Source>, 0, 2);
    V::store(dst, load_stored<V>(src));
    src += W;
    dst += W;
    if (--panel_left == 0) {
      panel_left = kPanelVectors;
      dst += (kc - 1) * MR;  // the next panel, same depth
    }
    if (--column_left == 0 && column + 1 < kc) start_column(column + 1);
  }

  // Copies what the k loops left, then packs the rows past the full panels.
  void finish() {
    quota = left;
    left = 0;
    while (quota > 0) step();
    const std::int64_t full = m / MR * MR;
    if (full < m) pack_a<V, MR>(m - full, kc, a + full, 1, cs, panels + full * kc);
  }

 private:
  // Inlined into the k loops: a call there would spill the accumulators.
  [[gnu::always_inline]] void start_column(std::int64_t p) {
    column = p;
    src = a + p * cs;
    dst = panels + p * MR;
    column_left = column_vectors;
    panel_left = kPanelVectors;
    ahead = p + ahead_columns < kc ? ahead_columns * cs : 0;
  }
};

// A copy's side work at `per_step` vectors a k step, for a k loop granted more of the copy than
// it has steps (a type of its own, so that the usual loop's one vector a step keeps no count): the
// tiles of a short block (the last rows of a slice) ahead of a full one, which would otherwise
// leave most of that block's copy to finish(), whose loads from memory then wait one after another
// (a loop of nothing but copies outruns PackAInSteps' fetches ahead). On the Zen 5 host (AVX-512,
// blocks of 288 rows at 4096 rows), sgemm 48 x 4096 x 4096 row-major: each slice's last block, 64
// rows, was granted 3384 vectors for 1504 steps, and on 2 threads finish() took 11% of the samples.
// Against one vector a step, alternated, three rounds, x oneDNN: 2 threads 32 / 48 / 64 / 128 x
// 4096 x 4096 0.75-0.80 / 0.48-0.80 / 0.65-0.80 / 0.89-0.97 -> 0.82-0.84 / 0.83-0.86 / 0.80-0.84 /
// 0.95-0.97; 1 thread 48 / 64 rows 178-191 / 201-208 -> 187-194 / 206-210 GFLOP/s.
template <class Copy>
struct CopyInRuns {
  Copy copy;
  int per_step = 1;
  [[gnu::always_inline]] void step() {
    for (int i = 0; i < per_step; ++i) copy.step();
  }
};

// B block depth [0, kc) x columns [0, n), element (p, j) at b[p * rs + j * cs], into
// ceil(n / NR) micro-panels, each [kc][NR]: dst[panel * kc * NR + p * NR + j].
template <class V, int NR>
void pack_b(std::int64_t kc, std::int64_t n, const typename V::scalar* b, std::int64_t rs,
            std::int64_t cs, typename V::scalar* dst) {
  using T = typename V::scalar;
  for (std::int64_t j0 = 0; j0 < n; j0 += NR, dst += kc * NR) {
    const int cols = static_cast<int>(n - j0 < NR ? n - j0 : NR);
    const T* src = b + j0 * cs;
    if (cs == 1 && cols == NR) {
      // Row-contiguous B: each k is NR consecutive elements.
      for (std::int64_t p = 0; p < kc; ++p) {
        RIDGE_UNROLL for (int j = 0; j < NR; ++j) dst[p * NR + j] = src[p * rs + j];
      }
    } else if (rs == 1) {
      // Column-contiguous B (the usual column-major case): a transposition, all the panel's
      // columns read at once.
      const std::int64_t kc4 = kc / 4 * 4;
      const int full = cols / 4 * 4;
      transpose_blocks<V, TransposeOrder::slots_outer>(src, cs, full, kc4, dst, NR);
      for (int jj = 0; jj < cols; ++jj) {
        const T* col = src + jj * cs;
        for (std::int64_t p = jj < full ? kc4 : 0; p < kc; ++p) dst[p * NR + jj] = col[p];
      }
      for (int jj = cols; jj < NR; ++jj)
        for (std::int64_t p = 0; p < kc; ++p) dst[p * NR + jj] = T(0);
    } else {
      // General strides: one column at a time.
      for (int j = 0; j < cols; ++j) {
        const T* col = src + j * cs;
        for (std::int64_t p = 0; p < kc; ++p) dst[p * NR + j] = col[p * rs];
      }
      for (int j = cols; j < NR; ++j)
        for (std::int64_t p = 0; p < kc; ++p) dst[p * NR + j] = T(0);
    }
  }
}

}  // namespace ridge::kernels
