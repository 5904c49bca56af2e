// The internal form of one GEMM: every public layout and transposition reduces to this.
// (The namespace is gemm_detail because ridge::gemm is the public function.)
#pragma once

#include <cstdint>

namespace ridge::gemm_detail {

// C = alpha * A * B + beta * C with C column-major (element (i, j) at c[i + j * ldc]) and A, B
// given by element strides: A(i, p) = a[i * a_rs + p * a_cs], B(p, j) = b[p * b_rs + j * b_cs].
// A row-major C is handled by computing C^T = B^T A^T (see gemm.cpp).
template <class T>
struct Problem {
  std::int64_t m = 0, n = 0, k = 0;
  T alpha = 1;
  const T* a = nullptr;
  std::int64_t a_rs = 1, a_cs = 1;
  const T* b = nullptr;
  std::int64_t b_rs = 1, b_cs = 1;
  T beta = 0;
  T* c = nullptr;
  std::int64_t ldc = 1;

  // C (m x n) = alpha * A (m x k) * B (k x n) + beta * C with every operand given by element
  // strides along its rows and columns, C either column-major (c_rs == 1) or row-major
  // (c_cs == 1). A row-major C is solved as its transpose, C^T = B^T A^T, which is column-major.
  static Problem from_strides(std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
                              const T* a, std::int64_t a_rs, std::int64_t a_cs, const T* b,
                              std::int64_t b_rs, std::int64_t b_cs, T beta, T* c,
                              std::int64_t c_rs, std::int64_t c_cs) {
    Problem p;
    p.k = k;
    p.alpha = alpha;
    p.beta = beta;
    p.c = c;
    if (c_rs == 1) {
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
  Problem block(std::int64_t row0, std::int64_t rows, std::int64_t col0, std::int64_t cols) const {
    Problem sub = *this;
    sub.m = rows;
    sub.n = cols;
    sub.a = a + row0 * a_rs;
    sub.b = b + col0 * b_cs;
    sub.c = c + row0 + col0 * ldc;
    return sub;
  }
};

// Cache blocking of the five-loop algorithm (see blocking.cpp for where each comes from).
struct BlockSizes {
  std::int64_t mc = 0;         // rows of the packed A block, kept in this core's L3 share
  std::int64_t kc = 0;         // depth of micro-panels; an A micro-panel + a B micro-panel fit L1
  std::int64_t nc = 0;         // columns of the packed B panel, in the rest of that share
  std::int64_t direct_b = 0;   // elements of an unpacked B that stay in L2 (direct path limit)
  std::int64_t cached_bytes = 0;  // the most L3 keeps of a stream: larger operands come from DRAM
  // L1 data cache geometry, for telling when columns of an unpacked B fall into one L1 set.
  std::int64_t l1_line = 64, l1_sets = 64, l1_ways = 8;
  std::int64_t l1_bytes() const { return l1_line * l1_sets * l1_ways; }
};

}  // namespace ridge::gemm_detail
