// Path and thread choice. Every choice depends on the shape alone (the depth blocking above all),
// and threads split C only at whole vectors of rows and whole NR-column tiles. Every tile, one or
// MV vectors tall, whole or edge, computes each element of C by the same operations in the same
// order, so results are bit-identical for any number of threads.
#include "gemm/driver.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "gemm/dispatch.hpp"
#include "kernels/cache_model.hpp"
#include "kernels/epilogue_kernels.hpp"
#include "kernels/matrix_vector.hpp"
#include "kernels/pack_bf16.hpp"
#include "kernels/sweep_parts.hpp"
#include "kernels/vector_kernels.hpp"
#include "runtime/active_isa.hpp"
#include "runtime/settings.hpp"
#include "runtime/thread_pool.hpp"
#include "runtime/tuning.hpp"
#include "runtime/workspace.hpp"
#include "simd/cache_line.hpp"

namespace ridge::gemm_detail {
namespace {

// A dimension this small (e.g. LLM decoding, M = 1..32) makes packing the other operand a pure
// overhead: it would be read once either way.
constexpr std::int64_t kSkinny = 32;
// The most rows of x the dot products take with x stored transposed (dots_take_b).
constexpr std::int64_t kTransposedDotWidth = 16;
// The widest B (rows of x) against which a bf16 x W^T, W row-major, takes dot products along W's
// rows (run() for bf16) rather than the packed path: W read once, in place, widened as loaded.
// Measured on Zen 4 (AVX512_BF16), 2 threads, M x 4096 x 4096 row-major x W^T, GFLOP/s against
// the packed path (two alternated runs): M = 2 / 4 / 8 / 16 / 24 / 32 135-139 / 130-133 / 187 /
// 201 / 207 / 210 against 31-32 / 63-64 / 109-111 / 173-175 / 144-147 / 243-246.
constexpr std::int64_t kBf16DotWidth = 24;
// The same where the dot products take bf16 pairs (GemmKernels::pair_dot, AVX512_BF16), which
// do twice the widened dot's products per instruction. Measured on Zen 4, the same shapes, two
// alternated runs, against the packed path: M = 24 / 32 / 48 / 64 / 128 / 256 341-347 / 348-354
// / 364-366 / 371 / 372-373 / 366-368 against - / 258-269 / 300-309 / 326-333 / 372-382 /
// 409-412 (the widened dot at 24: 207-209).
constexpr std::int64_t kBf16PairDotWidth = 64;
// The same for int8 on the row dot (GemmKernels::row_dot) on AVX512_VNNI, whose tiles of 4 rows
// by 4 columns do fewer products per load than the packed path's, but read A once, in place.
// Measured on Zen 4, u8s8 on 2 threads, M x N x K row-major x W^T, GOP/s on the row dot against
// the packed path (alternated runs): N x K = 4096 x 4096, M = 16 / 32 / 64 / 128 / 256 / 512
// 734-735 / 744-750 / 768-794 / 800-807 / 794-802 / 786-793 against 366-447 / 528-605 /
// 650-716 (once 355) / 729-782 / 805-825 / 844-849; M = 128 at 4096 x 11008 715-723 against
// 712-734, at 1024 x 1024 791-794 against 798-806.
constexpr std::int64_t kInt8DotWidth = 128;
// The same on AVX-VNNI's quads (eight lanes), whose packed path runs at twice the pairs' rate.
// Measured on the 2-vCPU Xeon guest held to AVX2 and AVX-VNNI, u8s8 on 2 threads, M x 4096 x
// 4096 x W^T, GOP/s on the row dot against the packed path (two alternated runs): M = 8 / 16 /
// 24 / 32 / 48 / 64 / 128 458-473 / 545-558 / 601-624 / 600-609 / 600-632 / 624-640 / 632-653
// against 261-267 / 418-422 / 376-378 / 572-575 / 662-675 / 683-711 / 733-785.
constexpr std::int64_t kInt8NarrowQuadDotWidth = 32;
// The same on int16 pairs (VPMADDWD: the AVX2 and AVX-512 F paths). Measured on Zen 4 under
// --isa-cap avx2, u8s8 on 2 threads, 4096 x 4096, two alternated runs: M = 1 / 8 / 32 / 64 / 128
// 142.6-142.7 / 184-190 / 189-194 / 189-200 / 193 GOP/s against the packed path's 3.9 / 29-30 /
// 93-94 / 148-150 / 207-210.
constexpr std::int64_t kInt8PairDotWidth = 64;
// The widest B against which an A larger than L2 keeps the direct path (see run()): 24 columns
// where its page-strided slices may run kDeepSkinnySlices deep or deeper; where the memory
// system keeps fewer streams fed and the slices are shallower, 48 bytes of B per depth step
// (12 float columns, 6 double).
constexpr std::int64_t kDirectTallWidth = 24;
constexpr std::int64_t kShallowDirectTallBytes = 48;
// The widest B against which the packed path, with a column-contiguous A streaming from memory,
// copies each A block while the tiles of the block before it run (Loops::packed, copy_ahead).
// Packing such an A, 2 n FLOP per element against B's n columns, takes (bytes of A / DRAM read
// rate) / (FLOP / FMA peak) = sizeof(T) x peak / (2 n x bandwidth) of the products' time (the
// same for f32 and f64, whose peak is half). Copying ahead hides most of it, but on smaller
// blocks (packed_plan) and with a load and a store beside a step's FMAs, so it pays where that
// share is large. Measured on the 2-vCPU Xeon guest (f32 FMA peak 246 GFLOP/s a CPU on AVX-512,
// 131 on AVX2; ~25 GB/s read), M x 4096 x 4096 row-major, 1 thread, copy ahead against without,
// alternated: AVX-512 sgemm M = 32 / 48 / 64 / 96 / 128 / 256 1.15 / 1.11 / 1.08 / 1.05 /
// 1.03-1.04 / 0.96 (shares 0.63 / 0.42 / 0.31 / 0.21 / 0.16 / 0.08), 512 x 4096 x 11008 0.86;
// dgemm 32 / 64 / 96 / 128 1.06 / 1.10 / 1.05 / 1.03; AVX2 sgemm 32 / 64 / 96 / 128 / 256 1.11 /
// 1.06 / 1.05 / 1.02 / 0.99; 2 threads, AVX-512 32 / 48 / 64: sgemm 1.12 / 1.19 / 1.07, dgemm
// 1.10 / 1.21 / 1.05. About an eighth is where it stops paying: 128 columns is what that gives
// on the Xeon (160; AVX2 86) and Zen 3 (~90 GFLOP/s, 11 GB/s: 130), while Zen 4 (117 GFLOP/s,
// 25 GB/s: 75) is unmeasured. The bandwidth is not among the figures the library reads, so the
// width is this one for every machine.
constexpr std::int64_t kCopyAheadColumns = 128;
// Each extra thread must get at least this many multiply-adds (~1 us at 100 GFLOP/s), which
// covers handing work to a spinning pool worker (well under a microsecond). Measured on
// 2 cores (Zen 4): 64^3 sgemm is 1.3x faster on 2 threads than on 1 (oneDNN threads it too).
constexpr std::int64_t kMinFmaPerThread = 48 * 48 * 48;
// On the direct path each of a tile's depth steps reads A from its own column: KC concurrent
// memory streams. With B one or two columns wide the product is bound by reading A (<= 1 FLOP
// per byte of sgemm) and a tile is over too fast to keep many streams fed: a few deep steps
// read A fastest. Wider, the work per tile hides the streams, and a deeper KC saves passes of C
// through the caches: the depth grows with B's width. Measured, M x 4096 x 4096 sgemm, 1
// thread (AVX-512, Zen 4), GFLOP/s at depth 8 / 16 / 32 / 64 / 128 / 256 / 512:
//   M = 1:  12.1  9.2  7.6  6.7  6.6  6.5  6.4     M = 8:  43  60  67  73  80  71  71
//   M = 2:  17.6 16.1 14.3 13.3 13.3 13.2 13.2     M = 16: 31  48  62  68  74  78  73
//   M = 4:  33.3 32.8 32.7 36.7 39.2 36.7 33.4     M = 32: 37  54  70  81  87  81  91
constexpr std::int64_t kStreamBoundWidth = 2;
constexpr std::int64_t kStreamBoundDepth = 8;
constexpr std::int64_t kDirectDepthPerColumn = 16;
constexpr std::int64_t kPageBytes = 4096;  // the base page of x86-64 and most aarch64 Linux

std::int64_t direct_depth(std::int64_t n) {
  return n <= kStreamBoundWidth ? kStreamBoundDepth : kDirectDepthPerColumn * n;
}

// The deepest slice of a skinny product whose A lies a page per column, n columns wide, where
// the probe measured `streams` page-strided streams kept fed (TypedKernels::skinny_depth). The
// probe reads its streams as fast as memory allows; a tile of n columns spends n / 2 times as
// long on each line as a stream-bound one (kStreamBoundWidth), so as many times more streams
// keep up with it, and the deeper slice reloads C less often. Up to kSkinnySliceCeiling (or the
// stream count, where larger), past which no host gained. Measured on the Zen 3 host (probe: 8
// streams at 30 GB/s, 16 at 20, 32 at 17, 15 from 40 to 256), M x 4096 x 4096 row-major, GFLOP/s
// at depth 8 / 16 / 32 / 64:
//   sgemm, 1 thread:  M = 4 28 / 27 / 23 / 25,   M = 8 27 / 30 / 34 / 37,  M = 12 31 / 37 / 43 / 40
//   dgemm, 1 thread:  M = 4 12 / 14 / 12 / 11,   M = 8 13 / 15 / 16 / 15,  M = 12 15 / 18 / 19 / 19
//   sgemm, 2 threads: M = 4 50 / 56 / 49 / 43,   M = 8 53 / 60 / 68 / 74,  M = 12 64 / 74 / 78 / 72
//   dgemm, 2 threads: M = 4 24 / 24 / 22 / 19,   M = 8 27 / 29 / 30 / 29,  M = 12 33 / 37 / 41 / 35
// and the Xeon guest (32 streams, then a cliff: 10 GB/s at 64) ran M = 8 at depth 64 at half
// its rate at 24 or 32.
constexpr std::int64_t kSkinnySliceCeiling = 32;
std::int64_t skinny_slice_depth(std::int64_t streams, std::int64_t n) {
  return std::min(streams * std::max<std::int64_t>(1, n / kStreamBoundWidth),
                  std::max(streams, kSkinnySliceCeiling));
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Whether the packed path copies each A block while the tiles of the block before it run
// (kCopyAheadColumns): a column-contiguous A from memory against a B of more than two tiles'
// width (none at 8 columns, 4 + 4 (Loops::strip_columns), so that the whole copy follows the
// block's tiles a vector at a time; two at 12, which then copy a vector at every step; measured
// on the Zen 3 host, dgemm M x 4096 x 4096 row-major, GFLOP/s copying ahead and packing block by
// block: M = 8 on 1 thread 6.6 and 16.9, M = 12 on 2 threads 14.5 and 26.0) and at most
// kCopyAheadColumns wide.
template <class Problem>
bool copies_ahead(const Problem& p, int nr, bool a_from_memory) {
  return p.a_rs == 1 && p.n > 2 * nr && p.n <= kCopyAheadColumns && a_from_memory;
}

// The epilogue, if any, over C's block of p: for the paths whose kernels do not apply it
// themselves (the tile loops do, as each tile finishes).
template <class SourceA, class SourceB>
void apply_epilogue(const GemmProblem<float, SourceA, SourceB>& p, Isa isa) {
  if (p.epilogue != nullptr) kernels::epilogue_kernel(isa)(*p.epilogue, p.c, p.m, p.n);
}
void apply_epilogue(const GemmProblem<double>&, Isa) {}
// int8: on the float traits of the ISA whose tiles run it (AVX2's on an AVX-512 CPU), so that
// every path computes each element alike.
template <class SourceB>
void apply_epilogue(const GemmProblem<std::int32_t, std::int8_t, SourceB>& p, Isa isa) {
  if (p.epilogue != nullptr)
    gemm_kernels<std::int32_t, std::int8_t, SourceB>(isa).kernels.epilogue(*p.epilogue, p.c, p.m,
                                                                           p.n);
}

// The epilogue alone (alpha = 0 or K = 0, after C = beta C): a pass over C, which on a large C
// is bound by memory and split between the threads by columns.
template <class Problem>
void apply_epilogue_pass(const Problem& p, Isa isa) {
  constexpr std::int64_t kMinElementsPerThread = 64 * 1024;  // 256 KiB of C, a few microseconds
  const std::int64_t useful = p.m * p.n / kMinElementsPerThread;
  const int threads =
      useful < 2 ? 1 : static_cast<int>(std::min<std::int64_t>(runtime::max_threads(), useful));
  const std::int64_t columns = ceil_div(p.n, threads);
  runtime::parallel_run(threads, [&](int task) {
    const std::int64_t col0 = task * columns;
    if (col0 < p.n) apply_epilogue(p.block(0, p.m, col0, std::min(columns, p.n - col0)), isa);
  });
}

template <class Problem>
void scale_c(const Problem& p) {
  using T = decltype(p.beta);
  if (p.beta == T(1)) return;
  for (std::int64_t j = 0; j < p.n; ++j) {
    T* col = p.c + j * p.ldc;
    if (p.beta == T(0)) {
      std::fill(col, col + p.m, T(0));  // beta = 0: C is not read, NaN in C does not survive
    } else {
      for (std::int64_t i = 0; i < p.m; ++i) col[i] *= p.beta;
    }
  }
}

// C = beta C, then the epilogue, where the product is empty (alpha = 0 or K = 0: A and B are
// not read); false, doing nothing, where it is not.
template <class Problem>
bool run_without_product(const Problem& p, Isa isa) {
  if (p.alpha != decltype(p.alpha)(0) && p.k != 0) return false;
  scale_c(p);
  if (p.epilogue != nullptr) apply_epilogue_pass(p, isa);
  return true;
}

int thread_count(std::int64_t fma) {
  if (fma < 2 * kMinFmaPerThread) return 1;  // a small product does not ask the settings
  const std::int64_t useful = fma / kMinFmaPerThread;
  return static_cast<int>(std::min<std::int64_t>(runtime::max_threads(), useful));
}

// A grid of tm x tn thread blocks over C, each a whole number of vectors of rows by NR columns;
// chosen to make the largest block's time smallest, then to pack the least (a block packs its
// rows of A, columns of B): its multiply-adds a depth step, and where packing is dear beside
// them (GemmKernels::packing_cost) that many more for each row and column it packs. Rows go by
// vectors, not MR tiles, so the padded work is counted more exactly: 1000^3 on 2 threads (AVX-512)
// makes two blocks of 1008 rows x 504 columns (as MR tiles, 1024 x 504), which beats 512 + 488 rows
// x 1008 columns (sgemm on Zen 4, two alternated runs: +0.9%, +3.2%). A block's work counts at most
// the problem's columns (and rows): an 8-column B is one block of 8 columns, not of 12, against two
// of 6 and 2 that would each read all of A.
//
// Blocks of rows that meet inside a cache line of C share that line in every column: both
// threads write it, and it passes back and forth between their cores (false sharing). That costs
// about as much as a line more rows per block, and is counted so. Measured, sgemm on 2 threads
// (2-vCPU Xeon guest, AVX-512), C 16 bytes past a line start (as a heap allocation may leave it),
// two blocks of rows against two of columns, GFLOP/s: 128^3 223-230 and 271-283, 256^3 292-316
// and 335-339, 384^3 288-289 and 311-315, 512^3 304-310 and 320; with C on a line start the two
// within about 5% of each other.
struct Grid {
  int tm = 1, tn = 1;
  std::int64_t rows = 0, cols = 0;  // per block
};

template <class Problem>
Grid choose_grid(const Problem& p, int threads, int row_step, int nr, std::int64_t packing_cost) {
  using T = std::remove_cvref_t<decltype(*p.c)>;
  constexpr std::int64_t kLine = simd::kLineElements<T>;
  // Whether every column of C starts on a line, so that blocks of whole lines of rows meet on
  // line boundaries.
  const bool columns_on_lines =
      reinterpret_cast<std::uintptr_t>(p.c) % simd::kLineBytes == 0 && p.ldc % kLine == 0;
  Grid best;
  std::int64_t best_work = -1, best_pack = 0;
  for (int tm = 1; tm <= threads; ++tm) {
    if (threads % tm != 0) continue;
    const int tn = threads / tm;
    Grid g{tm, tn, ceil_div(ceil_div(p.m, row_step), tm) * row_step,
           ceil_div(ceil_div(p.n, nr), tn) * nr};
    const bool shares_lines = tm > 1 && !(columns_on_lines && g.rows % kLine == 0);
    const std::int64_t rows = std::min(g.rows, p.m), cols = std::min(g.cols, p.n);
    const std::int64_t work =
        (rows + (shares_lines ? kLine : 0)) * cols + packing_cost * (rows + cols);
    const std::int64_t pack = g.rows + g.cols;
    if (best_work < 0 || work < best_work || (work == best_work && pack < best_pack)) {
      best = g;
      best_work = work;
      best_pack = pack;
    }
  }
  return best;
}

// Whether p is a matrix-vector product -- C one column (A x) or one row (x^T B) -- whose matrix
// has a unit stride to stream along.
template <class Problem>
bool has_matrix_vector_form(const Problem& p) {
  if (p.n == 1) return p.a_rs == 1 || p.a_cs == 1;
  return p.m == 1 && (p.b_rs == 1 || p.b_cs == 1);
}

// Such a product on the matrix-vector kernels, which stream the matrix once in address order;
// false if it has no such form. Measured (Zen 4), cblas_sgemm row-major 4096 x 1 x 4096 (A x, which
// reaches the driver as the 1 x 4096 product x^T A^T) on 1 / 2 threads: 7.1-8.3 / 15.7-18.0 GB/s of
// A on the tile loops, 20.8-24.0 / 33.3-41.6 on the matrix-vector kernels in the same runs; the
// other products of one row or column ran within the noise of GEMV's.
template <class T>
bool run_as_matrix_vector(const GemmProblem<T>& p) {
  if (!has_matrix_vector_form(p)) return false;
  kernels::GemvProblem<T> v;
  v.alpha = p.alpha;
  v.beta = p.beta;
  v.y = p.c;
  std::int64_t incx = 0, incy = 0;
  // The matrix M (rows x cols, strides rs, cs) times x, as GEMV's column-major problem.
  const auto matrix = [&](const T* data, std::int64_t rows, std::int64_t cols, std::int64_t rs,
                          std::int64_t cs) {
    v.a = data;
    v.transposed = rs != 1;  // row-major M is the column-major M^T
    v.m = v.transposed ? cols : rows;
    v.n = v.transposed ? rows : cols;
    v.lda = v.transposed ? rs : cs;
  };
  if (p.n == 1) {  // c = A b
    matrix(p.a, p.m, p.k, p.a_rs, p.a_cs);
    v.x = p.b;
    incx = p.b_rs;
    incy = 1;
  } else {  // p.m == 1: c^T = B^T a^T
    matrix(p.b, p.n, p.k, p.b_cs, p.b_rs);
    v.x = p.a;
    incx = p.a_cs;
    incy = p.ldc;
  }
  kernels::matrix_vector(v, incx, incy);
  return true;
}

// B's columns as the column sweep takes x (kernels::GemvProblem::columns): widened to T, the
// columns interleaved, element q of column j at q * n + j.
template <class T, class Problem>
std::vector<T> sweep_columns_of(const Problem& p) {
  std::vector<T> x(static_cast<std::size_t>(p.k * p.n));
  for (std::int64_t q = 0; q < p.k; ++q)
    for (std::int64_t j = 0; j < p.n; ++j) {
      const auto value = p.b[q * p.b_rs + j * p.b_cs];
      if constexpr (std::is_same_v<decltype(value), const std::uint16_t>) {
        x[q * p.n + j] = kernels::widen_bf16(value);
      } else {
        x[q * p.n + j] = value;
      }
    }
  return x;
}

// C = alpha A B + beta C on GEMV's column sweep (kernels::matrix_vector), B's columns its columns
// of x: A as GEMV's matrix of contiguous columns, or (one column of B) A's contiguous rows as
// GEMV's A^T x.
template <class T, class Problem>
void run_column_sweep(const Problem& p) {
  using SourceA = std::remove_cvref_t<decltype(*p.a)>;
  const std::vector<T> x = sweep_columns_of<T>(p);
  const bool transposed = p.a_rs != 1;
  kernels::GemvProblem<T, SourceA> v;
  v.m = transposed ? p.k : p.m;
  v.n = transposed ? p.m : p.k;
  v.a = p.a;
  v.lda = transposed ? p.a_rs : p.a_cs;
  v.transposed = transposed;
  v.alpha = p.alpha;
  v.x = x.data();
  v.beta = p.beta;
  v.y = p.c;
  v.columns = p.n;
  v.ldy = p.ldc;
  kernels::matrix_vector(v, 1, 1);
  apply_epilogue(p, runtime::active_isa());
}

// The packing cost choose_grid weighs a grid's blocks by: GemmKernels::packing_cost where the
// packed path packs A during the call, copied ahead from memory or not; none where A is not
// packed (the direct and dot paths). Two threads that split B's columns each copy all of A, the
// same lines at about the same time, where two halves of A (the grid splitting its rows) are
// copied once. With the copy ahead fetching whole columns ahead (kernels::PackAInSteps) the
// halves win from memory too. Measured on Zen 5, 2 threads, A's rows split against B's columns,
// alternated, x oneDNN (f64 x OpenBLAS): f32 32 / 48 / 96 / 128 x 4096 x 4096 (A 64 MiB) 1.05-1.10
// / 1.00-1.07 / 0.98-1.00 / 1.04-1.06 against 1.00-1.04 / 0.93-0.96 / 0.95-1.01 / 0.92-0.95, and
// in the host's slow spells 48 / 96 rows 0.74-1.01 / 0.80-0.98 against 0.62-0.65 / 0.70-0.72 (with
// the earlier fetch, 48 rows 0.71-0.82 against 0.51-0.53); in three rounds of a changeable hour 32
// / 64 / 128 rows 0.76-1.07 / 0.75-0.92 / 0.93-1.06 against 0.80-1.03 / 0.76-0.92 / 0.89-1.01; f64
// 96 rows 1.82-1.90 against 1.44-1.46, 32 level; held to AVX2, f32 96 rows 0.99-1.01 against 0.79,
// 32 level. From L3, f32 48 / 96 x 2048 x 2048 0.84-0.86 / 0.89-0.91 against 0.67 / 0.80-0.81; bf16
// pairs 24 x 4096 x 4096 0.96-1.09 against 0.60-0.62.
template <class Kernels>
std::int64_t packing_cost(const Kernels& loops, bool packs_a) {
  return packs_a ? loops.packing_cost : 0;
}

// Runs path(block, work) on `threads` blocks of C (choose_grid, packing_cost as there), or on p
// itself when one, each block with task_bytes(block) bytes of workspace of its own, all reserved
// before anything is written.
template <class Problem, class TaskBytes, class Path>
void run_in_blocks(const Problem& p, int threads, int row_step, int nr, const TaskBytes& task_bytes,
                   const Path& path, std::int64_t packing_cost = 0) {
  const auto reserve = [](std::size_t bytes) {
    return bytes > 0 ? runtime::workspace(bytes) : nullptr;
  };
  if (threads == 1) {
    path(p, reserve(task_bytes(p)));
    return;
  }
  const Grid g = choose_grid(p, threads, row_step, nr, packing_cost);
  // Blocks are g.rows x g.cols but for the last row and column of them. Every shape is asked:
  // a path's workspace need not grow with its block (the prepacked path packs all of a narrow
  // block's B at once and a wide one's a panel at a time).
  const std::int64_t rows = std::min(g.rows, p.m), last_rows = p.m - (p.m - 1) / g.rows * g.rows;
  const std::int64_t cols = std::min(g.cols, p.n), last_cols = p.n - (p.n - 1) / g.cols * g.cols;
  std::size_t bytes = 0;
  for (const std::int64_t r : {rows, last_rows})
    for (const std::int64_t c : {cols, last_cols})
      bytes = std::max(bytes, task_bytes(p.block(0, r, 0, c)));
  std::byte* work = reserve(g.tm * g.tn * bytes);
  runtime::parallel_run_independent(g.tm * g.tn, [&](int task) {
    const std::int64_t row0 = (task / g.tn) * g.rows;
    const std::int64_t col0 = (task % g.tn) * g.cols;
    if (row0 >= p.m || col0 >= p.n) return;
    path(p.block(row0, std::min(g.rows, p.m - row0), col0, std::min(g.cols, p.n - col0)),
         work + task * bytes);
  });
}

// run_in_blocks on blocks of rows only (nr = n), for the kernels that take dot products along
// A's rows: a block of fewer columns would read all of A as well.
template <class Problem, class TaskBytes, class Path>
void run_in_row_blocks(const Problem& p, int threads, int row_step, const TaskBytes& task_bytes,
                       const Path& path) {
  run_in_blocks(p, threads, row_step, static_cast<int>(p.n), task_bytes, path);
}

// Whether the dot products along A's rows (x W^T) take B, `columns` wide against an A of a_bytes,
// as it is laid out: its columns contiguous, always; with x stored transposed (B's rows contiguous:
// `--op tt`) the direct path reads B as its tiles want it, and keeps the small products: the dot
// products take those whose A lies past L2, against at most 16 rows of x. Measured on the 2-vCPU
// Xeon guest, sgemm row-major `--op tt` on 2 threads, alternated, two runs, GFLOP/s, direct path
// against dot products: M x 4096 x 4096, M = 2 / 3 / 4 / 8 / 12 / 16 / 24 / 32 4.6-5.0 / 18.6 /
// 23-24 / 57 / 63-82 / 98-99 / 90-91 / 100-141 against 45-47 / 69 / 88-97 / 105-107 / 115-119 /
// 120-128 / 124-127 / 128-129 (dgemm M = 2 / 16 / 32 2.1 / 44-46 / 65-67 against 18.4-18.5 / 53-56
// / 59-61); 2 / 16 x 1024 x 1024 11-13 / 122-123 against 73 / 137-145; A in L2, 8 / 16 x 256 x 256
// 78-82 / 126-127 against 101 / 111-115, 8 x 64 x 64 57-60 against 36.
bool dots_take_b(std::int64_t b_rs, std::int64_t columns, std::int64_t a_bytes,
                 const kernels::CacheModel& caches) {
  return b_rs == 1 || (columns <= kTransposedDotWidth && a_bytes > caches.l2_streamed);
}

// The prepacked form of the column sweep (run_column_sweep): C's few columns from A's panels
// (q, as Loops::prepacked reads them) by the unpacked call's arithmetic, its depth in the sweep's
// parts; every block all of B's columns, as x holds them.
template <class Problem, class Prepacked, class Kernels>
void run_prepacked_columns(const Problem& p, const Prepacked& q, const Kernels& loops, int threads,
                           Isa isa) {
  using T = std::remove_cvref_t<decltype(*q.a)>;
  const int parts = kernels::sweep_depth_parts(p.m, p.k);
  const std::vector<T> x = sweep_columns_of<T>(p);
  run_in_row_blocks(
      q, threads, loops.mr, [](const Prepacked&) -> std::size_t { return 0; },
      [&](const Prepacked& block, std::byte*) {
        loops.prepacked_columns(block, parts, x.data());
        apply_epilogue(block, isa);
      });
}

// The path run() takes for a float or double product (m, n, k > 0, alpha != 0) and the options
// it runs it with. The kernel, and on the tile loops (direct and packed paths) the depth of the
// slices, fix how each element of C is rounded; nothing else in the route changes it. Reads A's
// strides, never its elements or address.
template <class T>
struct Route {
  enum class Path { matrix_vector, column_sweep, dot, direct, packed };
  Path path = Path::packed;
  const TypedKernels<T>* table = nullptr;
  const BlockSizes* blocks = nullptr;
  DirectOptions direct;
  PackedOptions packed;
  bool dot_fetches_ahead = false;

  // The depth of the tile loops' slices (all but the last) on a k-deep product.
  std::int64_t depth(std::int64_t k) const {
    if (path == Path::direct) return direct.depth;
    return packed_plan(k, *blocks, table->kernels.mr, table->kernels.nr, packed.copy_ahead).depth;
  }
};

template <class T>
Route<T> choose_route(const GemmProblem<T>& p, Isa isa) {
  using Path = typename Route<T>::Path;
  Route<T> route;
  if ((p.n == 1 || p.m == 1) && has_matrix_vector_form(p)) {
    route.path = Path::matrix_vector;
    return route;
  }
  const TypedKernels<T>& table = gemm_kernels<T>(isa);
  const GemmKernels<T>& loops = table.kernels;
  const kernels::CacheModel& caches = table.caches;
  const GemmTuning& tuning = runtime::gemm_tuning(isa);
  const BlockSizes& blocks = tuned_blocks(isa, table, tuning);
  // A few columns of C against an A of contiguous columns (x W with a few rows of x, W stored
  // along its outputs): GEMV's column sweep over all of them (kernels::GemvProblem::columns),
  // each element of A loaded once for every column, where a tile would fill 2 to 8 of its 12
  // columns. Two columns where A lies past L1; more where it lies past L2 and within what L3
  // streams: from L2 the tiles' many FMAs a load win, and from memory the direct path's
  // page-strided streams (its skinny depth) keep more lines in flight than the sweep's 8 columns.
  // Measured on the 2-vCPU Xeon guest, sgemm M x N x N row-major on 2 threads, sweep over tiles,
  // alternated, two runs: M = 2 at N = 16 / 64 / 128 / 256 / 512 / 1024 / 2048 / 4096 0.71 /
  // 1.00 / 1.18 / 1.18-1.27 / 1.76 / 1.88 / 1.29 / 1.25; M = 3 / 4 / 6 / 8 at N = 1024 1.19 /
  // 1.54 / 1.31 / 1.28, at 2048 0.99 / 1.19 / 1.16 / 0.99, at 512 0.79 / 0.91 / 0.76 / 0.69, at
  // 4096 0.94 / 0.98 / 0.96 / 0.76; dgemm M = 2 / 4 / 8 at N = 1024 1.15 / 1.16 / 1.10.
  const std::int64_t a_bytes = p.m * p.k * std::int64_t{sizeof(T)};
  if (p.a_rs == 1 && p.n > 1 && p.n <= kernels::kMaxSweepColumns &&
      (p.n == 2 ? a_bytes > caches.l1_bytes()
                : a_bytes > caches.l2_streamed && !kernels::streams_from_memory(a_bytes, caches))) {
    route.path = Path::column_sweep;
    return route;
  }

  // From the whole problem, not a thread's block: the depth blocking fixes the rounding, which
  // must not depend on the thread count.
  const std::int64_t slice_kc = std::min({blocks.kc, direct_depth(p.n), blocks.slab_depth});
  // The direct path (A never packed) while B stays in L2, where every tile of A rereads it
  // from: all of B read in place (BlockSizes::l2_elements), or one depth slice of B packed at a
  // time -- which saves packing A, a full extra pass over the larger operand, when B is narrow
  // (measured, 128x4096x4096 sgemm 1 thread, Zen 4: packed path 89.7 GFLOP/s, direct 99). A
  // skinny A (M <= 32) is read in place too.
  //
  // An in-place B whose columns crowd one L1 set is packed too: a tile's NR broadcasts per depth
  // step then evict each other (and A) from L1. This happens when B's columns lie a multiple of
  // the L1 way size apart, as in LLM decoding (32 x 4096 x 4096 row-major sgemm: A's rows are
  // 16 KiB apart). Measured on Zen 4 (AVX-512, 4 KiB ways), direct path, 1 thread:
  // 32 x 4096 x 4096 69.5 GFLOP/s in place, 90.6 packed; 64 x 1024 x 1024 (4 KiB apart) 82.5
  // and 93.7; 512^3 (2 KiB apart, 6 lines per set) 106.9 and 103.4. So B may take all but two
  // ways of a set, left to A and C. An A of one tile's rows or fewer reads B once and gains
  // nothing from the copy, and a small problem then skips the check's integer divisions (50
  // instructions of a 16^3 call).
  const bool b_in_l2 = p.k * p.n <= blocks.l2_elements;
  const bool b_slice_in_l2 = slice_kc * p.n <= blocks.l2_elements;
  const auto b_crowds_l1 = [&] {
    return p.b_cs != 1 &&
           kernels::l1_lines_per_set(p.b_cs * std::int64_t{sizeof(T)},
                                     std::min<std::int64_t>(loops.nr, p.n),
                                     caches) > caches.l1_ways - 2;
  };
  // Likewise an in-place A whose depth steps crowd one L1 set: the tile's MR x KC slab that
  // every strip of a row of tiles rereads then leaves L1 (and, on a host whose L3 is slow,
  // comes back from there). The slab is packed instead, the tiles read it contiguously.
  // Measured on a 2-vCPU Xeon guest (AVX-512, 48 KiB 12-way L1, L3 reads 28 GB/s a CPU),
  // 1 thread, sgemm row-major, whose B's rows (this A's depth steps) lie 2 to 16 KiB apart; in
  // place (the library before this rule) against packed, alternated in one run:
  // 128 x 1024 x 1024 62 and 151 GFLOP/s, 128 x 4096 x 4096 52 and 137, 256 x 4096 x 4096 54
  // and 155, 512^3 160 and 187. A skinny product (N <= 32) reads A in place: its B gives each
  // slab too few strips to repay the copy, and its depth slices are capped instead
  // (a_column_per_page).
  const auto a_crowds_l1 = [&](std::int64_t depth) {
    return kernels::l1_lines_per_set(p.a_cs * std::int64_t{sizeof(T)}, std::min(depth, p.k),
                                     caches) > caches.l1_ways - 2;
  };
  // An A with contiguous rows against a narrow B (row-major x W^T with a skinny x, as in LLM
  // decoding): dot products along the depth (kernels/dot.hpp) read A in place and a copy of B,
  // where the tile loops would transpose A at every depth slice; B as dots_take_b says.
  const bool dot = p.a_cs == 1 && p.a_rs != 1 && p.n <= kSkinny && b_in_l2 &&
                   dots_take_b(p.b_rs, p.n, a_bytes, caches);
  // An A that does not fit L2: the direct path reads it once, a slab at a time (one line of
  // each of the slab's columns per tile, every column a stream of its own), and packs each slab
  // anyway once more than one strip of columns rereads it; the packed path reads it in runs of
  // MC rows down each column, which the hardware prefetchers follow, but copies it once more.
  // Whichever costs less depends on the memory system: `ridge tune` decides (tall_a_path), else
  // the packed path, the one that costs less where it is wrong. Measured, sgemm 128 x 4096 x 4096
  // 1 thread: direct 99 GFLOP/s, packed 89.7 (Zen 4, AVX-512); on the Xeon guest, geometric
  // mean of packed over direct at 128 x 4096 x 4096 and 256 x 2048 x 2048, f32 and f64, 1 and 2
  // threads (`ridge tune`): AVX2 path 1.53 (and 1.55 in a second run), AVX-512 path 1.01.
  //
  // A narrow B (LLM decoding at up to a few dozen tokens) keeps the direct path, which reads A
  // once, in place or a slab at a time, with as many page-strided streams as the slice is deep
  // (skinny depth): the product is bound by reading A, which the packed path's copy in runs of
  // MC rows reads no faster. Wider, the work per element of A hides the streams and the packed
  // path's full tiles and deep slices win. Measured on the Xeon guest, M x 4096 x 4096
  // row-major, direct path (skinny depth 32) against packed, GFLOP/s:
  //  - 2 threads, M = 16 / 24 / 32: AVX2 sgemm 114 / 121 / 115 against 111 / 110 / 122, dgemm
  //    54 / 54 / 51 against 55 / 53 / 60; AVX-512 sgemm 108 / 175 / 185 against 100 / 147 /
  //    225, dgemm 43 / 75 / 79 against 46 / 68 / 106.
  //  - 1 thread: within 5% of each other at M = 8 to 24 on both paths, f32 and f64; at 32 the
  //    packed path 1.14x (AVX-512 sgemm) and 1.20x (dgemm), level on AVX2.
  // So the direct path up to kDirectTallWidth columns, the packed path past it. That holds where
  // the skinny slices run deep (the Xeon's probe: 32 page-strided streams, so 32 deep). Where the
  // memory system keeps fewer streams fed, each shallow slice reloads and stores the tiles of C
  // for a few steps of FMAs, and the packed path wins from narrower B: on the Zen 3 host (probe:
  // 8 streams, slices 8 deep), M x 4096 x 4096 row-major, packed over direct, alternated, M = 8
  // / 12 / 16 / 24: sgemm 1 thread 0.96 / - / 2.1 / 2.5, 2 threads 0.97 / 0.75 / 1.9 / 2.2;
  // dgemm 1 thread 1.06 / 1.91 / 1.83 / 2.18, 2 threads 0.96 / 0.75 / 1.59 / 1.88. With the
  // direct path's tiles on A's lines and its slices as deep as skinny_slice_depth gives (32 at
  // 16 columns and more), M = 16 / 24 in consecutive runs: sgemm 1 thread 1.33 / 1.39, 2
  // threads 1.54 / 1.42, dgemm 1 thread 1.44 / 1.47. What the direct path keeps there is a width
  // in bytes, 48 a depth step: packed (block by block) over direct, 1 thread, dgemm M = 5 / 6 /
  // 7 / 8 / 12 0.88 / 0.94 / 1.18 / 1.22-1.26 / 1.21, 2 threads M = 8 1.27; sgemm, whose 9 to 12
  // columns went either way (1 thread M = 8 / 9 / 10 0.89 / 1.11 / 1.09, 2 threads M = 8 / 12
  // 0.92 / 0.81), keeps the 12 columns it had.
  const std::int64_t page_streams =
      tuning.skinny_depth > 0 ? tuning.skinny_depth : table.skinny_depth;
  const std::int64_t direct_tall_width = page_streams >= kDeepSkinnySlices
                                             ? kDirectTallWidth
                                             : kShallowDirectTallBytes / std::int64_t{sizeof(T)};
  const bool tall_a_packed = tuning.tall_a_path != 1 && p.m > kSkinny && p.n > direct_tall_width &&
                             p.m * p.k * std::int64_t{sizeof(T)} > caches.l2_streamed;
  const bool direct = (b_in_l2 || b_slice_in_l2 || p.m <= kSkinny) && !tall_a_packed;
  DirectOptions options;
  options.pack_b = !dot && b_slice_in_l2 && (!b_in_l2 || (p.m > loops.mr && b_crowds_l1()));
  // A skinny product reading A a page per column runs slices at most as deep as
  // skinny_slice_depth gives from the streams the memory system keeps fed (the tuned depth
  // itself where tuned); the path is still chosen at slice_kc. Where A's columns lie closer than
  // a page, the extra slices only cost: 300^3 to 384^3 sgemm (A in L2) ran 1-3% slower at a 256
  // cap (Zen 4), so they keep the slice depth.
  const bool a_column_per_page =
      p.n <= kSkinny && p.a_rs == 1 && p.a_cs * std::int64_t{sizeof(T)} >= kPageBytes;
  const std::int64_t skinny_depth =
      tuning.skinny_depth > 0 ? tuning.skinny_depth : skinny_slice_depth(page_streams, p.n);
  options.depth = a_column_per_page ? std::min(slice_kc, skinny_depth) : slice_kc;
  // Packed only where two or more column strips reread the slab: the copy costs more than one
  // reread from L2. Measured on the 2-vCPU Xeon guest, sgemm M x 1024 x 1024 row-major on 1
  // thread, M = 13 / 16 / 20 / 24 (two strips), GFLOP/s: AVX-512 82 / 99 / 101 / 113 with the
  // slab packed, 124 / 121 / 137 / 142 reread in place (dgemm 46 / 49 / 56 / 60 and 55 / 54 / 68
  // / 72); AVX2 (6-column strips, M = 8 and 12) 56 / 68 and 60 / 77, its last strip even
  // (Loops::strip_columns).
  options.pack_a = p.a_rs == 1 && p.n > 2 * loops.nr && a_crowds_l1(options.depth);
  // A B that fits in L1 runs narrower tiles (Loops::direct), as narrow as this core's FMA pipes
  // allow.
  if (p.k * p.n * std::int64_t{sizeof(T)} <= caches.l1_bytes())
    options.narrow_columns = table.narrow_columns;
  options.fma_chains = table.fma_chains;
  const bool a_from_memory = kernels::streams_from_memory(a_bytes, caches);
  // Tiles on A's lines (Loops::rows_to_line) where A streams from memory, and where its columns
  // lie a page or more apart: each column's lines then share one L1 set, and an extra line per
  // column crowds out the slab as much as a trip to L2 costs. Measured on the Zen 3 host, sgemm
  // row-major on 1 thread, B 16 bytes past a page as malloc leaves it, alternated: 8 x 4096 x 64
  // (B in L2/L3) 24.9 GFLOP/s off the lines, 44.8 on them (OpenBLAS 44.8), 8 x 4096 x 256 22.3
  // and 37.7 (40.2); with columns 256 bytes apart the short first tile only costs: 8 x 48 x 1024
  // 70.9 and 59.5, 32 x 64 x 64 88.4 and 69.4.
  options.line_aligned_tiles = a_column_per_page || a_from_memory;
  // A within L2 is fetched ahead only for full-width strips: against a few columns of B a tile
  // does few FMAs a depth step beside its fetches, which from L2 only cost. Measured on the
  // 2-vCPU Xeon guest, sgemm row-major, with the fetch against without, alternated, GFLOP/s:
  // 1 thread, three rounds, 3 / 4 / 8 x 512 x 512 68 / 79-84 / 118-129 against 72-74 / 82-85 /
  // 131-136, 5 x 300 x 700 106-111 against 107-114; 2 threads level (two rounds, 108-112 /
  // 142-144 / 206-220 against 109-114 / 146 / 212-216). Squares within L2 kept it on 2 threads
  // (128^3 / 384^3 244-253 / 302-304 against 235 / 284-299), and past L2 so did 12 / 24 x 1024
  // x 1024 (134-138 / 186-195 against 129-131 / 172-181) and 8 x 4096 x 4096 (123-131 against
  // 108-121). Held to AVX2, 1 thread: 3 / 4 x 512 x 512 47-48 / 64-67 against 55-58 / 60-61, 4 x
  // 384 x 384 70-74 against 77-78, 6 / 8 x 512 x 512 level; 2 threads 3 / 4 x 512 x 512 77-84 /
  // 85-113 against 87-90 / 108-114.
  options.fetch_a = a_bytes > caches.l2_streamed || p.n >= loops.nr;
  route.table = &table;
  route.blocks = &blocks;
  route.path = dot ? Path::dot : direct ? Path::direct : Path::packed;
  route.direct = options;
  route.packed = {copies_ahead(p, loops.nr, a_from_memory), table.fma_chains};
  route.dot_fetches_ahead = dot && kernels::fetches_ahead(a_bytes, caches, tuning.stream_prefetch);
  return route;
}

}  // namespace

template <class T>
void run(const GemmProblem<T>& p) {
  if (p.m == 0 || p.n == 0) return;
  const Isa isa = runtime::active_isa();
  if (run_without_product(p, isa)) return;
  const Route<T> route = choose_route(p, isa);
  using Path = typename Route<T>::Path;
  if (route.path == Path::matrix_vector) {
    run_as_matrix_vector(p);
    apply_epilogue(p, isa);
    return;
  }
  if (route.path == Path::column_sweep) {
    run_column_sweep<T>(p);
    return;
  }
  const GemmKernels<T>& loops = route.table->kernels;
  const BlockSizes& blocks = *route.blocks;
  const kernels::VectorKernels<T>* vector =
      route.path == Path::dot ? &kernels::vector_kernels<T>(isa) : nullptr;

  // A thread's workspace for `block` (none for the direct path with A and B in place, the usual
  // small product, which then skips the thread-local lookup).
  const auto task_bytes = [&](const GemmProblem<T>& block) -> std::size_t {
    switch (route.path) {
      case Path::dot:
        return runtime::pages_for<T>(kernels::dot_workspace_elements(p.k, block.n, vector->width));
      case Path::direct:
        return direct_workspace(block, route.direct, loops.mr, loops.nr).bytes();
      default:
        return packed_workspace<T>(block.m, block.n, p.k, blocks, loops.mr, loops.nr,
                                   route.packed.copy_ahead)
            .bytes();
    }
  };
  const auto path = [&](const GemmProblem<T>& block, std::byte* task_work) {
    switch (route.path) {
      case Path::dot:
        vector->dot(block, route.dot_fetches_ahead, reinterpret_cast<T*>(task_work));
        apply_epilogue(block, isa);
        break;
      case Path::direct:
        loops.direct(block, route.direct, task_work);
        break;
      default:
        loops.packed(block, blocks, route.packed, task_work);
    }
  };
  run_in_blocks(p, thread_count(p.m * p.n * p.k), loops.width, loops.nr, task_bytes, path,
                packing_cost(loops, route.path == Path::packed));
}

template <class T>
void run_prepacked(const GemmProblem<T>& p, const PrepackedA& a) {
  if (p.m == 0 || p.n == 0) return;
  const Isa isa = a.isa;
  if (run_without_product(p, isa)) return;
  // The route of the unpacked call, from the strides A was packed from.
  GemmProblem<T> unpacked = p;
  unpacked.a = nullptr;
  unpacked.a_rs = a.rs;
  unpacked.a_cs = a.cs;
  const Route<T> route = choose_route(unpacked, isa);
  using Path = typename Route<T>::Path;
  const GemmKernels<T>& loops = gemm_kernels<T>(isa).kernels;
  // A as Loops::prepacked reads it.
  GemmProblem<T> q = p;
  q.a = static_cast<const T*>(a.panels);
  q.a_rs = p.k;
  q.a_cs = loops.mr;
  const int threads = thread_count(p.m * p.n * p.k);
  if ((route.path == Path::matrix_vector && p.n == 1) || route.path == Path::column_sweep) {
    run_prepacked_columns(p, q, loops, threads, isa);  // one column, or a few
    return;
  }
  if (route.path == Path::matrix_vector) {  // x^T B, A's one row the vector, read at a stride
    run_as_matrix_vector(q);
    apply_epilogue(p, isa);
    return;
  }
  // The tile loops, at the depth of the unpacked call's path. (A dot product route needs A with
  // contiguous rows, which PackedMatrix keeps as they are.)
  const std::int64_t depth = route.depth(p.k);
  const BlockSizes& blocks = *route.blocks;
  // B read in place where it fits in L1 and the unpacked call's direct path reads it so: a small
  // product then packs nothing. (A larger one gains from packing it: 8 x 4096 x 4096 sgemm on the
  // Zen 3 host, 1 thread, ran at 1.23x the unpacked call with B in place, 1.53x packed.)
  const bool b_in_place = route.path == Path::direct && !route.direct.pack_b &&
                          p.n * p.k * std::int64_t{sizeof(T)} <= route.table->caches.l1_bytes();
  run_in_blocks(
      q, threads, loops.mr, loops.nr,
      [&](const GemmProblem<T>& block) -> std::size_t {
        return prepacked_workspace<T>(block.m, block.n, p.k, depth, blocks, loops.mr, loops.nr,
                                      b_in_place)
            .bytes();
      },
      [&](const GemmProblem<T>& block, std::byte* work) {
        loops.prepacked(block, depth, blocks, route.packed.fma_chains, b_in_place, work);
      });
}

namespace {

// The packed path's options for operands stored narrower than the micro-kernel reads them: bf16
// widened copies A ahead where float does (Loops::kCopiesAhead); pairs (bf16 on AVX512_BF16,
// int8) are packed block by block. Reads A's strides, never its elements or address.
template <class T, class SourceA, class SourceB>
PackedOptions widened_options(const GemmProblem<T, SourceA, SourceB>& p,
                              const TypedKernels<T, SourceA, SourceB>& table) {
  const bool copy_ahead =
      std::is_same_v<SourceA, std::uint16_t> && table.kernels.depth_group == 1 &&
      copies_ahead(
          p, table.kernels.nr,
          kernels::streams_from_memory(p.m * p.k * std::int64_t{sizeof(SourceA)}, table.caches));
  return {copy_ahead, table.fma_chains};
}

// The blocks of `table`'s tiles under the tuning in force on `isa`.
template <class T, class SourceA, class SourceB>
const BlockSizes& blocks_in_force(Isa isa, const TypedKernels<T, SourceA, SourceB>& table) {
  return tuned_blocks(isa, table, runtime::gemm_tuning(isa));
}

// Operands stored narrower than the micro-kernel reads them (bf16, int8): the packed path, whose
// packing widens them.
template <class T, class SourceA, class SourceB>
void run_widened(const GemmProblem<T, SourceA, SourceB>& p) {
  if (p.m == 0 || p.n == 0) return;
  const Isa isa = runtime::active_isa();
  if (run_without_product(p, isa)) return;
  const TypedKernels<T, SourceA, SourceB>& table = gemm_kernels<T, SourceA, SourceB>(isa);
  const GemmKernels<T, SourceA, SourceB>& loops = table.kernels;
  const std::int64_t steps = loops.steps(p.k);
  const PackedOptions options = widened_options(p, table);
  const BlockSizes blocks =
      blocks_for_columns(blocks_in_force(isa, table), p.n, loops.mr, loops.nr);
  using Problem = GemmProblem<T, SourceA, SourceB>;
  run_in_blocks(
      p, thread_count(p.m * p.n * steps), loops.width, loops.nr,
      [&](const Problem& block) -> std::size_t {
        return packed_workspace<T>(block.m, block.n, steps, blocks, loops.mr, loops.nr,
                                   options.copy_ahead, loops.depth_group == 4, loops.step_multiple)
            .bytes();
      },
      [&](const Problem& block, std::byte* work) { loops.packed(block, blocks, options, work); },
      packing_cost(loops, true));
}

// x W^T against a few rows of x on the tiles reading W's rows where they lie
// (GemmKernels::rows_in_place, where the kernel set has it): whether p is such a product (A of
// contiguous rows, C at most rows_in_place_width columns), and the product, the threads
// splitting A's rows, in slices `depth` steps deep.
template <class T, class SourceA, class SourceB>
bool reads_rows_in_place(const GemmProblem<T, SourceA, SourceB>& p,
                         const GemmKernels<T, SourceA, SourceB>& loops) {
  return loops.rows_in_place != nullptr && p.a_cs == 1 && p.a_rs != 1 &&
         p.n <= loops.rows_in_place_width && p.m > 0 && p.n > 0 && p.k > 0;
}
template <class T, class SourceA, class SourceB>
void run_rows_in_place(const GemmProblem<T, SourceA, SourceB>& p,
                       const GemmKernels<T, SourceA, SourceB>& loops, std::int64_t depth) {
  using Problem = GemmProblem<T, SourceA, SourceB>;
  run_in_row_blocks(
      p, thread_count(p.m * p.n * loops.steps(p.k)), loops.mr,
      [&](const Problem& block) -> std::size_t {
        return loops.rows_in_place_bytes(block.m, block.n, p.k);
      },
      [&](const Problem& block, std::byte* work) { loops.rows_in_place(block, depth, work); });
}

}  // namespace

// One column of C against an A of contiguous columns (x W, W row-major and x one row): the
// column sweep, which streams A once at bf16's two bytes an element, as the float GEMM's
// matrix-vector path does at four (the packed path would copy A to floats first: 8.7 GFLOP/s on
// 2 threads at 1 x 4096 x 4096 on the Zen 3 host, against 13.7 for sgemm). So too a few columns
// (x W with a few rows of x; GemmKernels::column_sweep_columns, fewer where W lies within L2),
// each element of A loaded and widened once for all of them, where the tiles would pack all of
// W for a few FMAs an element. Measured on the Xeon guest, 2 threads, alternated, the sweep
// over the tiles at M = 2 / 4 / 6 / 8 rows of x against 4096 x 4096: AMX 1.96-2.25 / 1.60-1.87
// / 1.26-1.46 / 1.13-1.22 (8 x 1024 x 1024, W in L2, 0.87-1.03); VDPBF16PS tiles (RIDGE_AMX=0)
// 2.33-2.55 / 2.16-2.31 / 1.47-2.04 / 1.87-2.09; AVX2 2.95-3.15 / 2.47-2.67 / 1.96-2.15 /
// 1.48-1.77. Against an A of contiguous rows (x W^T, W row-major as a linear layer stores it)
// dot products along them, which the packed path would transpose first: 1 x 4096 x 4096 on 2
// threads (Zen 4) ran at 0.2x oneDNN so. x is widened first. Where the dot products take pairs
// (AVX512_BF16), x W^T with x contiguous goes to them instead, as with a few rows of x: 1 x 4096
// x 1024 on 2 threads 103-110 against 119-121 GFLOP/s (1 thread 56-57 against 61), level at 1 x
// 4096 x 4096.
bool sweeps_columns(const GemmProblem<float, std::uint16_t, std::uint16_t>& p,
                    const GemmKernels<float, std::uint16_t, std::uint16_t>& loops) {
  if (p.n == 1) return p.a_rs == 1 || (p.a_cs == 1 && (loops.pair_dot == nullptr || p.b_rs != 1));
  const std::int64_t a_bytes = p.m * p.k * std::int64_t{sizeof(std::uint16_t)};
  return p.n > 1 && p.a_rs == 1 &&
         p.n <= loops.sweep_columns(a_bytes, kernels::CacheModel::current().l2_streamed);
}
void run(const GemmProblem<float, std::uint16_t, std::uint16_t>& p) {
  const Isa isa = runtime::active_isa();
  const GemmKernels<float, std::uint16_t, std::uint16_t>& loops =
      gemm_kernels<float, std::uint16_t, std::uint16_t>(isa).kernels;
  const auto pair_dot = loops.pair_dot;
  if (sweeps_columns(p, loops) && p.m > 0 && p.k > 0 && p.alpha != 0) {
    run_column_sweep<float>(p);
    return;
  }
  // A few columns of C against an A of contiguous rows (x W^T with a few rows of x): dot
  // products along A's rows, as for float (the dot path in choose_route, and its rule for x
  // stored transposed), x widened as copied, or on AVX512_BF16 as pairs (GemmKernels::pair_dot).
  const std::int64_t dot_width = loops.dot_width > 0   ? loops.dot_width
                                 : pair_dot != nullptr ? kBf16PairDotWidth
                                                       : kBf16DotWidth;
  if (p.a_cs == 1 && p.a_rs != 1 && p.n <= dot_width && p.m > 0 && p.n > 0 &&
      dots_take_b(p.b_rs, p.n, p.m * p.k * std::int64_t{sizeof(std::uint16_t)},
                  kernels::CacheModel::current())) {
    if (run_without_product(p, isa)) return;
    const kernels::VectorKernels<float>& vector = kernels::vector_kernels<float>(isa);
    using Problem = GemmProblem<float, std::uint16_t, std::uint16_t>;
    const bool prefetch = kernels::fetches_ahead(p.m * p.k * std::int64_t{sizeof(std::uint16_t)},
                                                 kernels::CacheModel::current(),
                                                 runtime::gemm_tuning(isa).stream_prefetch);
    run_in_row_blocks(
        p, thread_count(p.m * p.n * p.k), vector.width,
        [&](const Problem& block) -> std::size_t {
          return runtime::pages_for<float>(
              kernels::dot_workspace_elements(p.k, block.n, vector.width));
        },
        [&](const Problem& block, std::byte* work) {
          auto* b_copy = reinterpret_cast<float*>(work);
          if (pair_dot != nullptr) {
            pair_dot(block, prefetch, b_copy);
          } else {
            vector.dot_bf16(block, prefetch, b_copy);
          }
          apply_epilogue(block, isa);
        });
    return;
  }
  // More rows of x against W's rows: the tiles on W's rows as they lie (GemmKernels::
  // rows_in_place), at the depth slices the packed path would take, whose results these are to
  // the bit.
  if (reads_rows_in_place(p, loops)) {
    if (run_without_product(p, isa)) return;
    const TypedKernels<float, std::uint16_t, std::uint16_t>& table =
        gemm_kernels<float, std::uint16_t, std::uint16_t>(isa);
    const BlockSizes blocks =
        blocks_for_columns(blocks_in_force(isa, table), p.n, loops.mr, loops.nr);
    run_rows_in_place(p, loops,
                      packed_plan(loops.steps(p.k), blocks, loops.mr, loops.nr,
                                  widened_options(p, table).copy_ahead, loops.step_multiple)
                          .depth);
    return;
  }
  run_widened(p);
}

// One column of C against an A of contiguous columns (x W, W row-major and x one row): the pair
// column sweep, which streams A once at a byte an element, the packed path copying it to int16
// pairs first (u8s8 1 x 4096 x 4096 on the Zen 3 host: 10 GOP/s on 1 thread, 0.89x ridge's
// sgemm); so too a few columns (GemmKernels::column_sweep_columns). Rows in blocks whose int32 sums
// fill half of L2, as GEMV's column sweep. Against an A of contiguous rows (x W^T, W row-major)
// with a few columns, dot products along the rows (GemmKernels::row_dot), in blocks of whole lines
// of C.
template <class SourceB>
void run(const GemmProblem<std::int32_t, std::int8_t, SourceB>& p) {
  const TypedKernels<std::int32_t, std::int8_t, SourceB>& table =
      gemm_kernels<std::int32_t, std::int8_t, SourceB>(runtime::active_isa());
  const GemmKernels<std::int32_t, std::int8_t, SourceB>& loops = table.kernels;
  using Problem = GemmProblem<std::int32_t, std::int8_t, SourceB>;
  const std::int64_t dot_width = loops.dot_width > 0      ? loops.dot_width
                                 : loops.depth_group != 4 ? kInt8PairDotWidth
                                 : loops.width < 16       ? kInt8NarrowQuadDotWidth
                                                          : kInt8DotWidth;
  if (p.n <= dot_width && p.a_rs != 1 && p.a_cs == 1 && p.b_rs == 1 && p.m > 0 && p.n > 0 &&
      p.k > 0) {
    run_in_row_blocks(
        p, thread_count(p.m * p.n * ceil_div(p.k, 2)), simd::kLineElements<std::int32_t>,
        [&](const Problem& block) -> std::size_t { return loops.row_dot_bytes(p.k, block.n); },
        [&](const Problem& block, std::byte* work) {
          loops.row_dot(block.m, block.n, block.k, block.a, block.a_rs, block.a_zero, block.b,
                        block.b_cs, block.b_zero, block.c, block.ldc,
                        reinterpret_cast<std::uint8_t*>(work));
          apply_epilogue(block, runtime::active_isa());
        });
    return;
  }
  // More rows of x against W's rows: the tiles on W's rows as they lie (GemmKernels::
  // rows_in_place; int8 sums are exact in any order, so the depth is one slice).
  if (reads_rows_in_place(p, loops)) {
    run_rows_in_place(p, loops, loops.steps(p.k));
    return;
  }
  // A few columns (x W with a few rows of x): one sweep of A for all of them.
  const bool sweep = p.n >= 1 &&
                     p.n <= loops.sweep_columns(p.m * p.k * std::int64_t{sizeof(std::int8_t)},
                                                table.caches.l2_streamed) &&
                     p.b_rs == 1 && p.m > 0 && p.k > 0 && p.a_rs == 1;
  if (!sweep) {
    run_widened(p);
    return;
  }
  const int step = loops.column_sweep_rows;
  const std::int64_t row_block =
      std::max<std::int64_t>(step, table.caches.l2_streamed / 2 / 4 / p.n / step * step);
  // The threads split the depth, each summing all rows over its part (whole columns of A, as
  // GEMV's column sweep does, kernels/sweep_parts.hpp; the sums are exact in any order), and the
  // parts' sums are added after. Measured (Zen 4, 2 threads, alternated, three rounds), GOP/s
  // with the rows split and with the depth: u8s8 1 x 4096 x 4096 91-96 / 130, 1 x 1024 x 4096
  // 67-68 / 125-126, 1 x 4096 x 1024 96-97 / 116; AVX2 forced, 1 x 4096 x 4096 86-95 / 106-109.
  const int threads = thread_count(p.m * p.n * ceil_div(p.k, 2));
  const int parts =
      static_cast<int>(std::min<std::int64_t>(threads, p.k / kernels::kSweepPartColumns));
  if (parts > 1) {
    // Part q > 0's sums of column j at ((q - 1) * n + j) * m.
    auto* sums = reinterpret_cast<std::int32_t*>(
        runtime::workspace(runtime::pages_for<std::int32_t>((parts - 1) * p.n * p.m)));
    runtime::parallel_run(parts, [&](int q) {
      const std::int64_t k0 = kernels::sweep_part_begin(p.k, parts, q);
      const std::int64_t k1 = kernels::sweep_part_begin(p.k, parts, q + 1);
      loops.column_sweep(p.m, k1 - k0, p.a + k0 * p.a_cs, p.a_cs, p.a_zero, p.b + k0, p.b_cs,
                         p.b_zero, q == 0 ? p.c : sums + (q - 1) * p.n * p.m, q == 0 ? p.ldc : p.m,
                         p.n, row_block);
    });
    for (std::int64_t j = 0; j < p.n; ++j)
      for (std::int64_t i = 0; i < p.m; ++i) {
        std::uint32_t sum = static_cast<std::uint32_t>(p.c[j * p.ldc + i]);
        for (int q = 1; q < parts; ++q)
          sum += static_cast<std::uint32_t>(sums[((q - 1) * p.n + j) * p.m + i]);
        p.c[j * p.ldc + i] = static_cast<std::int32_t>(sum);
      }
    apply_epilogue(p, runtime::active_isa());
    return;
  }
  run_in_row_blocks(
      p, threads, step, [](const Problem&) -> std::size_t { return 0; },
      [&](const Problem& block, std::byte*) {
        loops.column_sweep(block.m, block.k, block.a, block.a_cs, block.a_zero, block.b, block.b_cs,
                           block.b_zero, block.c, block.ldc, block.n, row_block);
        apply_epilogue(block, runtime::active_isa());
      });
}

// bf16 and int8 on an A packed beforehand: the unpacked call's route and slice depth (run()
// above), on A's panels. bf16's few columns against a column-contiguous A, which run() sweeps,
// are the panels' column products, to the bit; int8's sums are exact in any order, so its one
// column runs the tiles.
template <class T, class SourceA, class SourceB>
void run_prepacked_narrow(const GemmProblem<T, SourceA, SourceB>& p, const PrepackedA& a) {
  if (p.m == 0 || p.n == 0) return;
  const Isa isa = a.isa;
  if (run_without_product(p, isa)) return;
  const TypedKernels<T, SourceA, SourceB>& table = gemm_kernels<T, SourceA, SourceB>(isa);
  const GemmKernels<T, SourceA, SourceB>& loops = table.kernels;
  const std::int64_t steps = loops.steps(p.k);
  // The strides A was packed from, for the route; then A as Loops::prepacked reads it.
  GemmProblem<T, SourceA, SourceB> unpacked = p;
  unpacked.a_rs = a.rs;
  unpacked.a_cs = a.cs;
  using Prepacked = GemmProblem<T, T, SourceB>;
  Prepacked q;
  q.m = p.m;
  q.n = p.n;
  q.k = p.k;
  q.alpha = p.alpha;
  q.a = static_cast<const T*>(a.panels);
  q.a_rs = prepacked_panel_steps(p.k, loops.depth_group, loops.step_multiple);
  q.a_cs = loops.mr;
  q.b = p.b;
  q.b_rs = p.b_rs;
  q.b_cs = p.b_cs;
  q.beta = p.beta;
  q.c = p.c;
  q.ldc = p.ldc;
  q.epilogue = p.epilogue;
  q.a_zero = p.a_zero;
  q.b_zero = p.b_zero;
  const int threads = thread_count(p.m * p.n * steps);
  if constexpr (std::is_same_v<T, float>) {
    if (a.rs == 1 && sweeps_columns(unpacked, loops)) {  // the unpacked call's sweep
      run_prepacked_columns(p, q, loops, threads, isa);
      return;
    }
  }
  const PackedOptions options = widened_options(unpacked, table);
  // The unpacked call's slices where they fix the rounding (a float tile that sums its products
  // from zero: alpha not 1, or beta neither 0 nor 1); elsewhere not the shallow slices of a few
  // columns of C, which pay only where A is packed during the call (blocks_for_columns): with
  // them 16 / 32 / 64 x 4096 x 4096 on the Xeon's tiles, 2 threads, ran at 0.81x / 0.71x / 0.74x
  // (bf16) and 0.79x / 0.69x / 0.68x (u8s8).
  BlockSizes tuned = blocks_in_force(isa, table);
  if (std::is_same_v<T, std::int32_t> || (p.alpha == 1 && (p.beta == 0 || p.beta == 1)))
    tuned.narrow_kc = 0;
  const BlockSizes blocks = blocks_for_columns(tuned, p.n, loops.mr, loops.nr);
  const std::int64_t depth =
      packed_plan(steps, blocks, loops.mr, loops.nr, options.copy_ahead, loops.step_multiple).depth;
  const bool sums = loops.depth_group == 4;
  run_in_blocks(
      q, threads, loops.mr, loops.nr,
      [&](const Prepacked& block) -> std::size_t {
        return prepacked_workspace<T>(block.m, block.n, steps, depth, blocks, loops.mr, loops.nr,
                                      false, sums)
            .bytes();
      },
      [&](const Prepacked& block, std::byte* work) {
        loops.prepacked(block, depth, blocks, options.fma_chains, false, work);
      });
}

void run_prepacked(const GemmProblem<float, std::uint16_t, std::uint16_t>& p, const PrepackedA& a) {
  run_prepacked_narrow(p, a);
}

template <class SourceB>
void run_prepacked(const GemmProblem<std::int32_t, std::int8_t, SourceB>& p, const PrepackedA& a) {
  run_prepacked_narrow(p, a);
}

template void run<float>(const GemmProblem<float>&);
template void run<double>(const GemmProblem<double>&);
template void run_prepacked<float>(const GemmProblem<float>&, const PrepackedA&);
template void run_prepacked<double>(const GemmProblem<double>&, const PrepackedA&);
template void run(const GemmProblem<std::int32_t, std::int8_t, std::uint8_t>&);
template void run(const GemmProblem<std::int32_t, std::int8_t, std::int8_t>&);
template void run_prepacked(const GemmProblem<std::int32_t, std::int8_t, std::uint8_t>&,
                            const PrepackedA&);
template void run_prepacked(const GemmProblem<std::int32_t, std::int8_t, std::int8_t>&,
                            const PrepackedA&);

}  // namespace ridge::gemm_detail
