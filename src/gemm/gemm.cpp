// ridge::gemm: validates the views and reduces every layout and transposition to the internal
// column-major problem (kernels/problem.hpp).
#include "ridge/gemm.hpp"

#include <string>
#include <utility>

#include "gemm/driver.hpp"
#include "runtime/view_checks.hpp"

namespace ridge {
namespace {

constexpr const char* kFunction = "ridge::gemm";

[[noreturn]] void invalid(const std::string& message) {
  runtime::invalid_argument(kFunction, message);
}

// Throws std::invalid_argument describing the first bad argument. Out of line and cold, so the
// checks of a valid call (the common case, which may be a 16 x 16 product) stay a few compares.
template <class T>
[[noreturn, gnu::cold, gnu::noinline]] void report_invalid(const MatrixView<const T>& a,
                                                             const MatrixView<const T>& b,
                                                             const MatrixView<T>& c) {
  runtime::check_view(kFunction, "a", a);
  runtime::check_view(kFunction, "b", b);
  runtime::check_view(kFunction, "c", c);
  if (c.trans != Transpose::none) invalid("c must not be transposed");
  if (a.op_rows() != c.rows)
    invalid("op(a) has " + std::to_string(a.op_rows()) + " rows but c has " +
            std::to_string(c.rows));
  if (b.op_cols() != c.cols)
    invalid("op(b) has " + std::to_string(b.op_cols()) + " columns but c has " +
            std::to_string(c.cols));
  invalid("op(a) has " + std::to_string(a.op_cols()) + " columns but op(b) has " +
          std::to_string(b.op_rows()) + " rows");
}

// Element strides (along op(X)'s rows, along its columns) of a view.
template <class T>
void strides(const MatrixView<T>& v, std::int64_t& rs, std::int64_t& cs) {
  const bool row = v.layout == Layout::row_major;
  rs = row ? v.ld : 1;
  cs = row ? 1 : v.ld;
  if (v.trans == Transpose::transpose) std::swap(rs, cs);
}

template <class T>
void gemm_impl(T alpha, const MatrixView<const T>& a, const MatrixView<const T>& b, T beta,
               const MatrixView<T>& c) {
  if (!runtime::view_valid(a) || !runtime::view_valid(b) || !runtime::view_valid(c) ||
      c.trans != Transpose::none || a.op_rows() != c.rows || b.op_cols() != c.cols || a.op_cols() != b.op_rows())
    report_invalid(a, b, c);
  std::int64_t a_rs, a_cs, b_rs, b_cs, c_rs, c_cs;
  strides(a, a_rs, a_cs);
  strides(b, b_rs, b_cs);
  strides(c, c_rs, c_cs);
  gemm_detail::run(kernels::GemmProblem<T>::from_strides(c.rows, c.cols, a.op_cols(), alpha,
                                                          a.data, a_rs, a_cs, b.data, b_rs, b_cs,
                                                          beta, c.data, c_rs, c_cs));
}

}  // namespace

void gemm(float alpha, const MatrixView<const float>& a, const MatrixView<const float>& b,
          float beta, const MatrixView<float>& c) {
  gemm_impl(alpha, a, b, beta, c);
}

void gemm(double alpha, const MatrixView<const double>& a, const MatrixView<const double>& b,
          double beta, const MatrixView<double>& c) {
  gemm_impl(alpha, a, b, beta, c);
}

}  // namespace ridge
