// General matrix multiply: C = alpha * op(A) * op(B) + beta * C, for float and double.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ridge/export.hpp"

namespace ridge {

enum class Layout { row_major, col_major };
enum class Transpose { none, transpose };

// A matrix in memory: `rows` x `cols` elements, consecutive rows (row_major) or columns
// (col_major) `ld` elements apart, used as itself or transposed. For C the view must not be
// transposed.
template <class T>
struct MatrixView {
  T* data = nullptr;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t ld = 0;
  Layout layout = Layout::row_major;
  Transpose trans = Transpose::none;

  // op(X): the dimensions after transposition.
  std::int64_t op_rows() const { return trans == Transpose::none ? rows : cols; }
  std::int64_t op_cols() const { return trans == Transpose::none ? cols : rows; }
  // A view of mutable elements is also a view of constant ones.
  operator MatrixView<const T>() const
    requires(!std::is_const_v<T>)
  {
    return {data, rows, cols, ld, layout, trans};
  }
  MatrixView transposed() const {
    MatrixView t = *this;
    t.trans = trans == Transpose::none ? Transpose::transpose : Transpose::none;
    return t;
  }
};

// Views of contiguous (ld = extent) row- or column-major storage.
template <class T>
MatrixView<T> row_major(T* data, std::int64_t rows, std::int64_t cols, std::int64_t ld = 0) {
  return {data, rows, cols, ld ? ld : (cols > 1 ? cols : 1), Layout::row_major, Transpose::none};
}
template <class T>
MatrixView<T> col_major(T* data, std::int64_t rows, std::int64_t cols, std::int64_t ld = 0) {
  return {data, rows, cols, ld ? ld : (rows > 1 ? rows : 1), Layout::col_major, Transpose::none};
}

// C = alpha * op(A) * op(B) + beta * C. op(A) is M x K, op(B) is K x N, C is M x N; any
// M, N, K >= 0. beta == 0: C is not read (NaN in C does not propagate); alpha == 0 or K == 0:
// A and B are not read. Throws std::invalid_argument naming the argument for a negative size,
// a leading dimension below the extent, mismatched shapes, a transposed C or a null pointer
// with a non-empty matrix.
// (The views go by reference: by value, three 40-byte structs pass through the stack, measured
// at 8% of a 16^3 product.)
RIDGE_API void gemm(float alpha, const MatrixView<const float>& a, const MatrixView<const float>& b,
                    float beta, const MatrixView<float>& c);
RIDGE_API void gemm(double alpha, const MatrixView<const double>& a,
                    const MatrixView<const double>& b, double beta, const MatrixView<double>& c);

}  // namespace ridge
