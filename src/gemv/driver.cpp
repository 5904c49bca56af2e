// GEMV: the BLAS special cases, unit-stride staging of x and y, the thread split, the kernels.
#include "gemv/driver.hpp"

#include <algorithm>

#include "gemm/blocking.hpp"
#include "gemm/dispatch.hpp"
#include "runtime/aligned_buffer.hpp"
#include "runtime/settings.hpp"
#include "runtime/thread_pool.hpp"

namespace ridge::gemv_detail {
namespace {

// Each thread must get at least this much of A to be worth waking: 64 KiB stream from L2 in
// about a microsecond, more than handing work to a spinning pool worker costs. A cached A gains
// most from a second core, whose L2 doubles the bandwidth. Measured, sgemv on 2 threads,
// alternated with OpenBLAS: 362 x 362 (512 KiB) 72-74 GB/s from one thread (at 256 KiB per
// thread), 84-112 from two; 181 x 181 (128 KiB) the same either way.
constexpr std::int64_t kMinBytesPerThread = 64 * 1024;
// Thread parts of y are whole cache lines long, so two threads share at most the line where
// their parts meet.
constexpr std::int64_t kLineBytes = 64;

// y = beta * y, strided; beta = 0 writes zeros without reading y.
template <class T>
void scale(std::int64_t size, T beta, T* y, std::int64_t incy) {
  if (beta == T(1)) return;
  for (std::int64_t i = 0; i < size; ++i) y[i * incy] = beta == T(0) ? T(0) : beta * y[i * incy];
}

int thread_count(std::int64_t a_bytes) {
  const std::int64_t useful = a_bytes / kMinBytesPerThread;
  if (useful < 2) return 1;  // a small problem does not ask the settings
  return static_cast<int>(std::min<std::int64_t>(detail::max_threads(), useful));
}

// The kernel for one thread's part: the column sweep for A x; for A^T x, whose elements are dot
// products of A's contiguous columns with x, the GEMM's dot kernel (gemm/dot.hpp), on C = y as
// an n x 1 product of A^T (rows lda apart) and x.
template <class T>
void run_part(const Problem<T>& p, bool prefetch) {
  const gemm_detail::KernelSet<T>& kernels = gemm_detail::dispatch().get<T>().kernels;
  if (!p.transposed) {
    kernels.gemv_columns(p, prefetch);
    return;
  }
  // C = y (n x 1, column-major) = A^T (rows lda apart) x (contiguous).
  const auto dots = gemm_detail::Problem<T>::from_strides(p.n, 1, p.m, p.alpha, p.a, p.lda, 1, p.x,
                                                          1, p.m, p.beta, p.y, 1, p.n);
  kernels.dot(dots, prefetch);
}

template <class T>
void run_unit_stride(const Problem<T>& p) {
  const std::int64_t a_bytes = p.m * p.n * std::int64_t{sizeof(T)};
  const bool prefetch =
      gemm_detail::prefetch_streams(a_bytes, gemm_detail::dispatch().get<T>().blocks);
  const int threads = thread_count(a_bytes);
  if (threads == 1) {
    run_part(p, prefetch);
    return;
  }
  constexpr std::int64_t line = kLineBytes / sizeof(T);
  const std::int64_t size = p.y_size();
  const std::int64_t part = (size + threads * line - 1) / (threads * line) * line;
  detail::parallel_run(threads, [&](int task) {
    const std::int64_t y0 = task * part;
    if (y0 < size) run_part(p.part(y0, std::min(part, size - y0)), prefetch);
  });
}

}  // namespace

template <class T>
void run(const Problem<T>& p, std::int64_t incx, std::int64_t incy) {
  const std::int64_t y_size = p.y_size(), x_size = p.x_size();
  if (y_size == 0) return;
  if (p.alpha == T(0) || x_size == 0) {
    scale(y_size, p.beta, p.y, incy);  // A and x are not read
    return;
  }
  // Strided vectors are copied to unit stride: O(m + n) against the O(m n) of reading A.
  Problem<T> unit = p;
  if (incx != 1) {
    T* x = static_cast<T*>(
        detail::thread_scratch(detail::ScratchSlot::unit_x).get(sizeof(T) * x_size));
    for (std::int64_t i = 0; i < x_size; ++i) x[i] = p.x[i * incx];
    unit.x = x;
  }
  if (incy != 1) {
    T* y = static_cast<T*>(
        detail::thread_scratch(detail::ScratchSlot::unit_y).get(sizeof(T) * y_size));
    if (p.beta != T(0))
      for (std::int64_t i = 0; i < y_size; ++i) y[i] = p.y[i * incy];
    unit.y = y;
  }
  run_unit_stride(unit);
  if (incy != 1)
    for (std::int64_t i = 0; i < y_size; ++i) p.y[i * incy] = unit.y[i];
}

template void run<float>(const Problem<float>&, std::int64_t, std::int64_t);
template void run<double>(const Problem<double>&, std::int64_t, std::int64_t);

}  // namespace ridge::gemv_detail
