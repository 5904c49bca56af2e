// ridge::gemv: validates the views and reduces every layout and transposition to the internal
// column-major problem (kernels/problem.hpp), run on the matrix-vector kernels.
#include "ridge/gemv.hpp"

#include <string>

#include "kernels/matrix_vector.hpp"
#include "runtime/view_checks.hpp"

namespace ridge {
namespace {

constexpr const char* kFunction = "ridge::gemv";

[[noreturn]] void invalid(const std::string& message) {
  runtime::invalid_argument(kFunction, message);
}

template <class T>
bool vector_valid(const VectorView<T>& v) {
  return v.size >= 0 && v.inc != 0 && (v.data != nullptr || v.size == 0);
}

template <class T>
void check_vector(const char* name, const VectorView<T>& v) {
  const std::string n(name);
  if (v.size < 0) invalid(n + ".size is negative (" + std::to_string(v.size) + ")");
  if (v.inc == 0) invalid(n + ".inc is zero");
  if (v.data == nullptr && v.size != 0) invalid(n + ".data is null");
}

// Throws std::invalid_argument describing the first bad argument.
template <class T>
[[noreturn, gnu::cold, gnu::noinline]] void report_invalid(const MatrixView<const T>& a,
                                                             const VectorView<const T>& x,
                                                             const VectorView<T>& y) {
  runtime::check_view(kFunction, "a", a);
  check_vector("x", x);
  check_vector("y", y);
  if (a.op_rows() != y.size)
    invalid("op(a) has " + std::to_string(a.op_rows()) + " rows but y has " +
            std::to_string(y.size) + " elements");
  invalid("op(a) has " + std::to_string(a.op_cols()) + " columns but x has " +
          std::to_string(x.size) + " elements");
}

template <class T>
void gemv_impl(T alpha, const MatrixView<const T>& a, const VectorView<const T>& x, T beta,
               const VectorView<T>& y) {
  if (!runtime::view_valid(a) || !vector_valid(x) || !vector_valid(y) || a.op_rows() != y.size ||
      a.op_cols() != x.size)
    report_invalid(a, x, y);
  // The stored matrix as column-major: a row-major one is its transpose.
  const bool row = a.layout == Layout::row_major;
  kernels::GemvProblem<T> p;
  p.m = row ? a.cols : a.rows;
  p.n = row ? a.rows : a.cols;
  p.a = a.data;
  p.lda = a.ld;
  p.transposed = row == (a.trans == Transpose::none);
  p.alpha = alpha;
  p.x = x.data;
  p.beta = beta;
  p.y = y.data;
  kernels::matrix_vector(p, x.inc, y.inc);
}

}  // namespace

void gemv(float alpha, const MatrixView<const float>& a, const VectorView<const float>& x,
          float beta, const VectorView<float>& y) {
  gemv_impl(alpha, a, x, beta, y);
}

void gemv(double alpha, const MatrixView<const double>& a, const VectorView<const double>& x,
          double beta, const VectorView<double>& y) {
  gemv_impl(alpha, a, x, beta, y);
}

}  // namespace ridge
