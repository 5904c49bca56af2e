// The internal form of one GEMV, which every public layout, transposition and increment reduces
// to.
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

}  // namespace ridge::gemv_detail
