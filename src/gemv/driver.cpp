// GEMV: the BLAS special cases, unit-stride staging of x and y, the thread split, the kernel.
#include "gemv/driver.hpp"

#include <algorithm>

#include "ridge/isa.hpp"
#include "runtime/aligned_buffer.hpp"
#include "runtime/settings.hpp"
#include "runtime/thread_pool.hpp"

namespace ridge::gemv_detail {
namespace {

// Each thread must get at least this much of A to be worth waking: 256 KiB stream in ~10 us
// at one core's DRAM bandwidth, several times what handing work to a pool worker costs.
constexpr std::int64_t kMinBytesPerThread = 256 * 1024;
// Thread parts of y start on a cache line, so no two threads write one line of y.
constexpr std::int64_t kLineBytes = 64;

template <class T>
Kernels<T> make_kernels(Isa isa) {
  constexpr bool f32 = sizeof(T) == 4;
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512:
      if constexpr (f32) return avx512_kernels_f32(); else return avx512_kernels_f64();
    case Isa::avx2:
      if constexpr (f32) return avx2_kernels_f32(); else return avx2_kernels_f64();
#endif
    default:
      if constexpr (f32) return generic_kernels_f32(); else return generic_kernels_f64();
  }
}

// The kernels of the ISA the GEMM dispatch runs (RIDGE_ISA and ridge::set_isa() included).
template <class T>
const Kernels<T>& active_kernels() {
  static const Kernels<T> table[] = {make_kernels<T>(Isa::generic), make_kernels<T>(Isa::avx2),
                                     make_kernels<T>(Isa::avx512)};
  return table[static_cast<int>(active_isa())];
}

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

template <class T>
void run_unit_stride(const Problem<T>& p) {
  const Kernels<T>& kernels = active_kernels<T>();
  const auto kernel = p.transposed ? kernels.dots : kernels.columns;
  const int threads = thread_count(p.m * p.n * std::int64_t{sizeof(T)});
  if (threads == 1) {
    kernel(p);
    return;
  }
  constexpr std::int64_t line = kLineBytes / sizeof(T);
  const std::int64_t size = p.y_size();
  const std::int64_t part = (size + threads * line - 1) / (threads * line) * line;
  detail::parallel_run(threads, [&](int task) {
    const std::int64_t y0 = task * part;
    if (y0 < size) kernel(p.part(y0, std::min(part, size - y0)));
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
        detail::thread_scratch(detail::ScratchSlot::packed_a).get(sizeof(T) * x_size));
    for (std::int64_t i = 0; i < x_size; ++i) x[i] = p.x[i * incx];
    unit.x = x;
  }
  if (incy != 1) {
    T* y = static_cast<T*>(
        detail::thread_scratch(detail::ScratchSlot::packed_b).get(sizeof(T) * y_size));
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
