// The CBLAS-style arguments of ridge's own C functions (enum CBLAS_TRANSPOSE, a leading dimension
// in a layout) as the C++ API's views.
#pragma once

#include <algorithm>
#include <cstdint>

#include "ridge/gemm.hpp"
#include "ridge/ridge.h"

namespace ridge::capi {

inline bool valid_transpose(CBLAS_TRANSPOSE t) {
  return t == CblasNoTrans || t == CblasTrans || t == CblasConjTrans;
}

// The stored matrix behind op(X) (rows x cols after op), with leading dimension ld.
template <class T>
MatrixView<const T> operand(const T* data, CBLAS_TRANSPOSE t, std::int64_t rows, std::int64_t cols,
                            std::int64_t ld, Layout layout) {
  const bool transposed = t != CblasNoTrans;  // on real data ConjTrans is Trans
  return {data,
          transposed ? cols : rows,
          transposed ? rows : cols,
          ld,
          layout,
          transposed ? Transpose::transpose : Transpose::none};
}

// Whether a rows x cols matrix (sizes already checked non-negative) has elements: compared, not
// multiplied, as sizes whose product overflows int64_t are still checked against null pointers.
inline bool has_elements(std::int64_t rows, std::int64_t cols) { return rows > 0 && cols > 0; }

// Whether a stored rows x cols matrix in `layout` may have leading dimension ld.
inline bool ld_fits(std::int64_t ld, std::int64_t rows, std::int64_t cols, Layout layout) {
  return ld >= std::max<std::int64_t>(1, layout == Layout::row_major ? cols : rows);
}

}  // namespace ridge::capi
