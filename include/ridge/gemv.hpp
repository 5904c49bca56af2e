// Matrix-vector multiply: y = alpha * op(A) * x + beta * y, for float and double.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ridge/export.hpp"
#include "ridge/gemm.hpp"

namespace ridge {

// A vector in memory: element i at data[i * inc]. inc may be negative (element 0 then has the
// highest address) but not zero.
template <class T>
struct VectorView {
  T* data = nullptr;
  std::int64_t size = 0;
  std::int64_t inc = 1;

  operator VectorView<const T>() const
    requires(!std::is_const_v<T>)
  {
    return {data, size, inc};
  }
};

template <class T>
VectorView<T> vector(T* data, std::int64_t size, std::int64_t inc = 1) {
  return {data, size, inc};
}

// y = alpha * op(A) * x + beta * y. op(A) is M x N, x has N elements, y has M; any M, N >= 0.
// beta == 0: y is not read (NaN in y does not propagate); alpha == 0 or N == 0: A and x are not
// read. Bandwidth-bound: runs on several threads once A is large enough for that to pay.
// Throws std::invalid_argument naming the argument for a negative size, a leading dimension
// below the extent, a zero increment, mismatched sizes or a null pointer with a non-empty operand.
RIDGE_API void gemv(float alpha, const MatrixView<const float>& a, const VectorView<const float>& x,
                    float beta, const VectorView<float>& y);
RIDGE_API void gemv(double alpha, const MatrixView<const double>& a,
                    const VectorView<const double>& x, double beta, const VectorView<double>& y);

}  // namespace ridge
