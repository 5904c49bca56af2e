// Validation of the public matrix views, shared by every function of the C++ API that takes
// them (ridge::gemm, ridge::gemv): the checks, and the message naming the bad argument.
#pragma once

#include <string>

#include "ridge/gemm.hpp"
#include "runtime/errors.hpp"

namespace ridge::runtime {

template <class T>
bool view_valid(const MatrixView<T>& v) {
  const std::int64_t extent = v.layout == Layout::row_major ? v.cols : v.rows;
  return v.rows >= 0 && v.cols >= 0 && v.ld >= (extent > 1 ? extent : 1) &&
         (v.data != nullptr || v.rows == 0 || v.cols == 0);
}

// Throws std::invalid_argument ("<function>: <name>.<field> ...") if v is not valid.
template <class T>
void check_view(const char* function, const char* name, const MatrixView<T>& v) {
  if (view_valid(v)) return;
  const std::string n(name);
  if (v.rows < 0)
    invalid_argument(function, n + ".rows is negative (" + std::to_string(v.rows) + ")");
  if (v.cols < 0)
    invalid_argument(function, n + ".cols is negative (" + std::to_string(v.cols) + ")");
  const std::int64_t extent = v.layout == Layout::row_major ? v.cols : v.rows;
  if (v.ld < (extent > 1 ? extent : 1))
    invalid_argument(function, n + ".ld (" + std::to_string(v.ld) + ") is below " +
                                   (v.layout == Layout::row_major ? "the column count ("
                                                                  : "the row count (") +
                                   std::to_string(extent > 1 ? extent : 1) + ")");
  invalid_argument(function, n + ".data is null");
}

}  // namespace ridge::runtime
