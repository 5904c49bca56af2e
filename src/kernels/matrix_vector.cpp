// GEMV: the BLAS special cases, unit-stride staging of x and y, the workspace, the thread split,
// the kernels.
#include "kernels/matrix_vector.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/cache_model.hpp"
#include "kernels/sweep_parts.hpp"
#include "kernels/vector_kernels.hpp"
#include "runtime/active_isa.hpp"
#include "runtime/settings.hpp"
#include "runtime/thread_pool.hpp"
#include "runtime/tuning.hpp"
#include "runtime/workspace.hpp"
#include "simd/cache_line.hpp"

namespace ridge::kernels {
namespace {

// Each thread must get at least this much of A to be worth waking: 64 KiB stream from L2 in
// about a microsecond, more than handing work to a spinning pool worker costs. A cached A gains
// most from a second core, whose L2 doubles the bandwidth. Measured, sgemv on 2 threads,
// alternated with OpenBLAS (Zen 4): 362 x 362 (512 KiB) 72-74 GB/s from one thread (at 256 KiB
// per thread), 84-112 from two; 181 x 181 (128 KiB) the same either way.
constexpr std::int64_t kMinBytesPerThread = 64 * 1024;

// The most columns of x against which the column sweep fetches a bf16 A a kilobyte ahead where A
// streams from memory (SweepFetch::far, kernels/column_sweep.hpp). With more, each line of A
// feeds so many FMAs that the sweep reads A below the memory's rate, and the fetches only cost.
// Measured on Zen 5, bf16 x W on 2 threads against a 4096 x 4096 W read from DRAM, alternated,
// GFLOP/s, a line ahead -> a kilobyte ahead: 2 / 3 / 4 / 5 / 6 rows of x 121-126 -> 135-139 /
// 170-173 -> 179-186 / 210-212 -> 227-240 / 234-260 -> 253-270 / 253-270 -> 270-287; 7 rows
// 222-273 -> 244-254; 8 rows 283-301 -> 260-277. (Where repeated calls found W in L3, 2 / 4 / 8
// rows ran 4-7% slower a kilobyte ahead, as one row did: kernels/column_sweep.hpp.)
constexpr std::int64_t kFarFetchColumns = 6;

// y = beta * y, strided; beta = 0 writes zeros without reading y.
template <class T>
void scale(std::int64_t size, T beta, T* y, std::int64_t incy) {
  if (beta == T(1)) return;
  for (std::int64_t i = 0; i < size; ++i) y[i * incy] = beta == T(0) ? T(0) : beta * y[i * incy];
}

int thread_count(std::int64_t a_bytes) {
  const std::int64_t useful = a_bytes / kMinBytesPerThread;
  if (useful < 2) return 1;  // a small problem does not ask the settings
  return static_cast<int>(std::min<std::int64_t>(runtime::max_threads(), useful));
}

// Rows per block of the column sweep, at most: the block's partial sums fill half of L2, so
// that each column streams in as one run (each further part of a column starts the hardware
// prefetchers' stream anew) while the sums, read and written once per group of 8 columns (a
// quarter of A's traffic), come from L2 at several times the rate A comes from memory.
// Measured, sgemv column-major A x, 1 thread, against BLIS in the same runs: on the Zen 3 host
// (32 KiB L1, 512 KiB L2), 16384 x 4096 0.89-0.94x in blocks of 5472 rows (all but two ways of
// L1, three runs a column), 0.95-0.99x as whole columns; on the Xeon guest (48 KiB 12-way L1),
// dgemv 16384 x 4096 0.85-0.93x in blocks of 3072 rows, 0.96-0.98x in 5120; on Zen 4 8 KiB blocks
// 0.82-0.87x, 16 KiB 0.96-1.04x (column_sweep.hpp).
// With several columns of x the sums of all of them share that half.
template <class T>
std::int64_t sweep_rows(const CacheModel& caches, std::int64_t columns) {
  return std::max<std::int64_t>(64, caches.l2_streamed / 2 / std::int64_t{sizeof(T)} / columns);
}

// The rows of each block for columns `rows` long: as many blocks as sweep_rows needs, of equal
// size (a column that does not fit is read in parts of one length, not one full part and a
// short rest).
template <class T>
std::int64_t balanced_sweep_rows(std::int64_t rows, const CacheModel& caches,
                                 std::int64_t columns) {
  const std::int64_t most = sweep_rows<T>(caches, columns);
  const std::int64_t blocks = std::max<std::int64_t>(1, (rows + most - 1) / most);
  constexpr std::int64_t line = simd::kLineElements<T>;
  return std::min(most, ((rows + blocks - 1) / blocks + line - 1) / line * line);
}

// Elements of one thread's workspace: the column sweep's partial sums, or the dot kernel's copy
// of x.
template <class T, class SourceA>
std::int64_t task_elements(const GemvProblem<T, SourceA>& p, const VectorKernels<T>& kernels,
                           const CacheModel& caches) {
  return p.transposed ? dot_workspace_elements(p.m, 1, kernels.width)
                      : sweep_rows<T>(caches, p.columns) * p.columns;
}

// The kernel for one thread's part: the column sweep for A x; for A^T x, whose elements are dot
// products of A's contiguous columns with x, the dot kernel, on C = y as an n x 1 product of A^T
// (rows lda apart) and x.
template <class T, class SourceA>
void run_part(const GemvProblem<T, SourceA>& p, const VectorKernels<T>& kernels,
              const CacheModel& caches, SweepFetch fetch, T* work) {
  constexpr bool kNative = std::is_same_v<SourceA, T>;
  if (!p.transposed) {
    const std::int64_t rows = balanced_sweep_rows<T>(p.m, caches, p.columns);
    if constexpr (kNative) {
      kernels.column_sweep(p, rows, fetch, work);
    } else {
      kernels.column_sweep_bf16(p, rows, fetch, work);
    }
    return;
  }
  GemmProblem<T, SourceA, T> dots;
  dots.m = p.n;
  dots.n = 1;
  dots.k = p.m;
  dots.alpha = p.alpha;
  dots.a = p.a;
  dots.a_rs = p.lda;
  dots.b = p.x;
  dots.b_cs = p.m;
  dots.beta = p.beta;
  dots.c = p.y;
  dots.ldc = p.n;
  if constexpr (kNative) {
    kernels.vector_dot(dots, fetch.next, work);
  } else {
    kernels.vector_dot_bf16(dots, fetch.next, work);
  }
}

// Rows [r0, r1) of A x over part q of the depth's `parts` into that part's sums (`sums`, m
// elements for each of x's columns, column_stride apart).
template <class T, class SourceA>
void sum_part(const GemvProblem<T, SourceA>& p, int parts, int q, std::int64_t r0, std::int64_t r1,
              const VectorKernels<T>& kernels, const CacheModel& caches, SweepFetch fetch, T* sums,
              std::int64_t column_stride) {
  const std::int64_t c0 = sweep_part_begin(p.n, parts, q);
  GemvProblem<T, SourceA> piece = p;
  piece.m = r1 - r0;
  piece.n = sweep_part_begin(p.n, parts, q + 1) - c0;
  piece.a = p.a + c0 * p.lda + r0;
  piece.x = p.x + c0 * p.columns;
  const std::int64_t rows = balanced_sweep_rows<T>(piece.m, caches, p.columns);
  if constexpr (std::is_same_v<SourceA, T>) {
    kernels.column_sums(piece, rows, fetch, sums + r0, column_stride);
  } else {
    kernels.column_sums_bf16(piece, rows, fetch, sums + r0, column_stride);
  }
}

}  // namespace

template <class T, class SourceA>
void matrix_vector(const GemvProblem<T, SourceA>& p, std::int64_t incx, std::int64_t incy) {
  const std::int64_t y_size = p.y_size(), x_size = p.x_size();
  if (y_size == 0) return;
  if (p.alpha == T(0) || x_size == 0) {
    for (std::int64_t c = 0; c < p.columns; ++c)
      scale(y_size, p.beta, p.y + c * p.ldy, incy);  // A and x are not read
    return;
  }
  const Isa isa = runtime::active_isa();
  const VectorKernels<T>& kernels = vector_kernels<T>(isa);
  const CacheModel& caches = CacheModel::current();
  const std::int64_t a_bytes = p.m * p.n * std::int64_t{sizeof(SourceA)};
  const SweepFetch fetch{fetches_ahead(a_bytes, caches, runtime::gemm_tuning(isa).stream_prefetch),
                         p.columns <= kFarFetchColumns && streams_from_memory(a_bytes, caches)};
  const int threads = thread_count(a_bytes);
  const int parts = p.transposed ? 1 : sweep_depth_parts(p.m, p.n);
  constexpr std::int64_t line = simd::kLineElements<T>;
  const std::int64_t parts_stride = (y_size + line - 1) / line * line;

  // The workspace, before anything is written: strided x and y staged at unit stride (O(m + n)
  // against the O(m n) of reading A; one column only), then each thread's part, or the sums of
  // the depth's parts.
  const std::size_t x_bytes = incx != 1 ? runtime::pages_for<T>(x_size) : 0;
  const std::size_t y_bytes = incy != 1 ? runtime::pages_for<T>(y_size) : 0;
  const std::size_t task_bytes = runtime::pages_for<T>(task_elements(p, kernels, caches));
  std::byte* work = runtime::workspace(
      x_bytes + y_bytes +
      (parts > 1 ? runtime::pages_for<T>(parts * p.columns * parts_stride) : threads * task_bytes));
  const auto task_work = [&](int task) {
    return reinterpret_cast<T*>(work + x_bytes + y_bytes + task * task_bytes);
  };

  GemvProblem<T, SourceA> unit = p;
  if (incx != 1) {
    T* x = reinterpret_cast<T*>(work);
    for (std::int64_t i = 0; i < x_size; ++i) x[i] = p.x[i * incx];
    unit.x = x;
  }
  if (incy != 1) {
    T* y = reinterpret_cast<T*>(work + x_bytes);
    if (p.beta != T(0))
      for (std::int64_t i = 0; i < y_size; ++i) y[i] = p.y[i * incy];
    unit.y = y;
  }
  if (parts > 1) {
    // Each thread takes its share of the parts' rows, in part order and whole lines: whole
    // columns of one part where there are as many parts as threads. The sums of part q for x's
    // column c lie at (q * columns + c) * parts_stride.
    T* sums = task_work(0);
    const std::int64_t lines = parts_stride / line, units = parts * lines;
    const auto share = [&](int task) {
      const std::int64_t u1 = units * (task + 1) / threads;
      for (std::int64_t u = units * task / threads; u < u1;) {
        const int q = static_cast<int>(u / lines);
        const std::int64_t end = std::min(u1, (q + 1) * lines);
        sum_part(unit, parts, q, (u - q * lines) * line, std::min(y_size, (end - q * lines) * line),
                 kernels, caches, fetch, sums + q * p.columns * parts_stride, parts_stride);
        u = end;
      }
    };
    if (threads == 1) {
      share(0);
    } else {
      runtime::parallel_run(threads, share);
    }
    for (std::int64_t c = 0; c < p.columns; ++c)
      kernels.column_finish(y_size, parts, sums + c * parts_stride, p.columns * parts_stride,
                            unit.alpha, unit.beta, unit.y + c * p.ldy);
  } else if (threads == 1) {
    run_part(unit, kernels, caches, fetch, task_work(0));
  } else {
    // Thread parts of y are whole cache lines long, so two threads share at most the line where
    // their parts meet.
    const std::int64_t part = (y_size + threads * line - 1) / (threads * line) * line;
    runtime::parallel_run(threads, [&](int task) {
      const std::int64_t y0 = task * part;
      if (y0 < y_size)
        run_part(unit.part(y0, std::min(part, y_size - y0)), kernels, caches, fetch,
                 task_work(task));
    });
  }
  if (incy != 1)
    for (std::int64_t i = 0; i < y_size; ++i) p.y[i * incy] = unit.y[i];
}

template void matrix_vector<float>(const GemvProblem<float>&, std::int64_t, std::int64_t);
template void matrix_vector<double>(const GemvProblem<double>&, std::int64_t, std::int64_t);
template void matrix_vector<float, std::uint16_t>(const GemvProblem<float, std::uint16_t>&,
                                                  std::int64_t, std::int64_t);

}  // namespace ridge::kernels
