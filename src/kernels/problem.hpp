// The internal forms of one GEMM and one GEMV, which every public layout, transposition,
// stride and increment reduces to, and which the kernels take.
#pragma once

#include <cstdint>

#include "kernels/epilogue.hpp"

namespace ridge::kernels {

// C = alpha * A * B + beta * C with C column-major (element (i, j) at c[i + j * ldc]) and A, B
// given by element strides: A(i, p) = a[i * a_rs + p * a_cs], B(p, j) = b[p * b_rs + j * b_cs].
// A and B are stored as T, or as narrower integers (SourceA, SourceB: int8 GEMM) that the
// packing widens, less their zero points, to the micro-kernel's operands.
template <class T, class SourceA = T, class SourceB = T>
struct GemmProblem {
  std::int64_t m = 0, n = 0, k = 0;
  T alpha = 1;
  const SourceA* a = nullptr;
  std::int64_t a_rs = 1, a_cs = 1;
  const SourceB* b = nullptr;
  std::int64_t b_rs = 1, b_cs = 1;
  T beta = 0;
  T* c = nullptr;
  std::int64_t ldc = 1;
  // Applied to C once the product is in it (float, and int32 sums that it dequantises; its C is
  // the whole problem's, so the blocks share it).
  const Epilogue* epilogue = nullptr;
  // Integer operands: the product is (A - a_zero)(B - b_zero), every element less its zero point.
  std::int32_t a_zero = 0, b_zero = 0;

  // C (m x n) = alpha * A (m x k) * B (k x n) + beta * C with every operand given by element
  // strides along its rows and columns, C either column-major (c_rs == 1) or row-major
  // (c_cs == 1). A row-major C is solved as its transpose, C^T = B^T A^T, which is column-major.
  // (A row-major C needs A and B stored alike: SourceA = SourceB.) One column with rows 1 apart
  // is both; `row_major` says which it is, so that the caller knows which form it gets (an
  // epilogue's rows and columns, B packed as the transposed form's A).
  static GemmProblem from_strides(std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
                                  const SourceA* a, std::int64_t a_rs, std::int64_t a_cs,
                                  const SourceB* b, std::int64_t b_rs, std::int64_t b_cs, T beta,
                                  T* c, std::int64_t c_rs, std::int64_t c_cs,
                                  bool row_major = false) {
    GemmProblem p;
    p.k = k;
    p.alpha = alpha;
    p.beta = beta;
    p.c = c;
    if (c_rs == 1 && !row_major) {
      p.m = m, p.n = n, p.ldc = c_cs;
      p.a = a, p.a_rs = a_rs, p.a_cs = a_cs;
      p.b = b, p.b_rs = b_rs, p.b_cs = b_cs;
    } else {
      p.m = n, p.n = m, p.ldc = c_rs;
      p.a = b, p.a_rs = b_cs, p.a_cs = b_rs;
      p.b = a, p.b_rs = a_cs, p.b_cs = a_rs;
    }
    return p;
  }

  // The sub-problem C[rows, cols] (rows = [row0, row0 + rows), likewise cols), same K.
  GemmProblem block(std::int64_t row0, std::int64_t rows, std::int64_t col0,
                    std::int64_t cols) const {
    GemmProblem sub = *this;
    sub.m = rows;
    sub.n = cols;
    sub.a = a + row0 * a_rs;
    sub.b = b + col0 * b_cs;
    sub.c = c + row0 + col0 * ldc;
    return sub;
  }
};

// y = alpha * op(A) x + beta * y with A column-major, m x n, columns lda elements apart, and x, y
// contiguous: op(A) = A (y has m elements, x n) or, when `transposed`, A^T (y has n, x m). A is
// stored as T, or (T float) as bf16 bit patterns (SourceA = std::uint16_t), which the kernels
// widen as they load them. With A not transposed, x and y may have several columns
// (`columns`, at most kMaxSweepColumns; y's ldy apart, x's interleaved, element q of column c at
// x[q * columns + c]): a product with a few rows of x against weights stored along their outputs
// (x W), which the column sweep runs reading A once for all of them.
template <class T, class SourceA = T>
struct GemvProblem {
  std::int64_t m = 0, n = 0;
  const SourceA* a = nullptr;
  std::int64_t lda = 1;
  bool transposed = false;
  T alpha = 1;
  const T* x = nullptr;
  T beta = 0;
  T* y = nullptr;
  std::int64_t columns = 1, ldy = 0;

  // Elements of y, and of x.
  std::int64_t y_size() const { return transposed ? n : m; }
  std::int64_t x_size() const { return transposed ? m : n; }

  // The sub-problem computing y[y0, y0 + count): rows of A for A x, columns for A^T x.
  GemvProblem part(std::int64_t y0, std::int64_t count) const {
    GemvProblem sub = *this;
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

// What the column sweep (kernels/column_sweep.hpp) asks for ahead of its loads, beside what the
// hardware prefetchers fetch (the rules in kernels/cache_model.hpp).
struct SweepFetch {
  bool next = false;  // the next group's columns (fetches_ahead)
  bool far = false;   // bf16: each column's bytes a kilobyte ahead (A from memory, few columns)
};

}  // namespace ridge::kernels
