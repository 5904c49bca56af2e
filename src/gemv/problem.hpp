// The internal form of one GEMV, which every public layout, transposition and increment reduces
// to, and the table of kernels each ISA provides for it.
#pragma once

#include <cstdint>

namespace ridge::gemv_detail {

// y = alpha * op(A) x + beta * y with A column-major, m x n, columns lda elements apart, and x, y
// contiguous: op(A) = A (y has m elements, x n) or, when `transposed`, A^T (y has n, x m).
template <class T>
struct Problem {
  std::int64_t m = 0, n = 0;
  const T* a = nullptr;
  std::int64_t lda = 1;
  bool transposed = false;
  T alpha = 1;
  const T* x = nullptr;
  T beta = 0;
  T* y = nullptr;

  // Elements of y, and of x.
  std::int64_t y_size() const { return transposed ? n : m; }
  std::int64_t x_size() const { return transposed ? m : n; }

  // The sub-problem computing y[y0, y0 + count): rows of A for A x, columns for A^T x.
  Problem part(std::int64_t y0, std::int64_t count) const {
    Problem sub = *this;
    if (transposed) {
      sub.n = count;
      sub.a = a + y0 * lda;
    } else {
      sub.m = count;
      sub.a = a + y0;
    }
    sub.y = y + y0;
    return sub;
  }
};

// One ISA's kernels, single-threaded, for a validated problem with m, n >= 1 and alpha != 0.
template <class T>
struct Kernels {
  void (*columns)(const Problem<T>&) = nullptr;  // y = alpha * A x + beta * y
  void (*dots)(const Problem<T>&) = nullptr;     // y = alpha * A^T x + beta * y
};

// Defined in the per-ISA translation units (isa_*.cpp).
Kernels<float> generic_kernels_f32();
Kernels<double> generic_kernels_f64();
Kernels<float> avx2_kernels_f32();
Kernels<double> avx2_kernels_f64();
Kernels<float> avx512_kernels_f32();
Kernels<double> avx512_kernels_f64();

}  // namespace ridge::gemv_detail
