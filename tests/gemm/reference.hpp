// Test support for GEMM: matrices with known padding, a reference product in extended
// precision, and the error bound results are held to.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ridge/gemm.hpp"

namespace ridge::test {

// A matrix stored exactly as a caller would: (rows - 1) * ld + cols elements (row-major) with no
// slack after the last element, so AddressSanitizer sees a read one past the end. The gaps
// between rows (ld > extent) hold a sentinel the kernels must neither use nor overwrite.
template <class T>
struct Matrix {
  std::int64_t rows = 0, cols = 0, ld = 0;
  Layout layout = Layout::row_major;
  std::vector<T> storage;

  static constexpr T gap_value() { return std::numeric_limits<T>::quiet_NaN(); }

  Matrix(std::int64_t r, std::int64_t c, Layout l, std::int64_t ld_extra = 0)
      : rows(r), cols(c), layout(l) {
    const std::int64_t extent = l == Layout::row_major ? c : r;
    const std::int64_t lines = l == Layout::row_major ? r : c;
    ld = std::max<std::int64_t>(1, extent) + ld_extra;
    const std::int64_t size = (r == 0 || c == 0) ? 0 : (lines - 1) * ld + extent;
    storage.assign(static_cast<std::size_t>(size), gap_value());
  }
  std::int64_t index(std::int64_t i, std::int64_t j) const {
    return layout == Layout::row_major ? i * ld + j : i + j * ld;
  }
  T& at(std::int64_t i, std::int64_t j) { return storage[static_cast<std::size_t>(index(i, j))]; }
  T at(std::int64_t i, std::int64_t j) const {
    return storage[static_cast<std::size_t>(index(i, j))];
  }
  T* data() { return storage.empty() ? nullptr : storage.data(); }
  const T* data() const { return storage.empty() ? nullptr : storage.data(); }

  void fill_random(std::mt19937& rng) {
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) at(i, j) = static_cast<T>(dist(rng));
  }
  MatrixView<const T> view(Transpose t = Transpose::none) const {
    return {data(), rows, cols, ld, layout, t};
  }
  MatrixView<T> view() { return {data(), rows, cols, ld, layout, Transpose::none}; }

  // True if every gap element still holds the sentinel.
  bool gaps_intact() const {
    for (std::size_t idx = 0; idx < storage.size(); ++idx) {
      const std::int64_t line_pos = static_cast<std::int64_t>(idx) % ld;
      const std::int64_t extent = layout == Layout::row_major ? cols : rows;
      if (line_pos >= extent && !std::isnan(storage[idx])) return false;
    }
    return true;
  }
};

// Element strides of op(X) (along its rows, along its columns), as the internal problem takes them.
template <class T>
void op_strides(const MatrixView<T>& v, std::int64_t& rs, std::int64_t& cs) {
  rs = v.layout == Layout::row_major ? v.ld : 1;
  cs = v.layout == Layout::row_major ? 1 : v.ld;
  if (v.trans == Transpose::transpose) std::swap(rs, cs);
}

template <class T>
T op_at(const Matrix<T>& x, Transpose t, std::int64_t i, std::int64_t j) {
  return t == Transpose::none ? x.at(i, j) : x.at(j, i);
}

// Reference C = alpha * op(A) op(B) + beta * C in long double, and for each element the bound
// on a correct result's error: the standard dot-product bound gamma_K * sum |a||b| (Higham,
// "Accuracy and Stability of Numerical Algorithms", 3.1), with gamma_K ~ (K + 2) * eps taken
// twice for the alpha/beta update and for FMA-free paths. It holds every row of C, or only the
// rows asked for: a product sized to this machine's largest blocks can be too large for an
// extended-precision reference of every element, while the rows at a block's edges are what
// such a test is about.
template <class T>
struct Reference {
  std::vector<std::int64_t> rows;  // the rows of C held, in order
  std::vector<long double> value;
  std::vector<long double> bound;
  std::int64_t n = 0;
  long double at(std::size_t slot, std::int64_t j) const { return value[slot * n + j]; }
  long double tol(std::size_t slot, std::int64_t j) const { return bound[slot * n + j]; }
};

template <class T>
Reference<T> reference_gemm_rows(T alpha, const Matrix<T>& a, Transpose ta, const Matrix<T>& b,
                                 Transpose tb, T beta, const Matrix<T>& c,
                                 std::vector<std::int64_t> rows) {
  Reference<T> r;
  r.rows = std::move(rows);
  r.n = c.cols;
  const std::int64_t k = ta == Transpose::none ? a.cols : a.rows;
  r.value.resize(r.rows.size() * static_cast<std::size_t>(r.n));
  r.bound.resize(r.value.size());
  const long double eps = std::numeric_limits<T>::epsilon();
  for (std::size_t slot = 0; slot < r.rows.size(); ++slot) {
    const std::int64_t i = r.rows[slot];
    for (std::int64_t j = 0; j < r.n; ++j) {
      long double sum = 0, magnitude = 0;
      if (alpha != T(0)) {
        for (std::int64_t p = 0; p < k; ++p) {
          const long double prod =
              static_cast<long double>(op_at(a, ta, i, p)) * op_at(b, tb, p, j);
          sum += prod;
          magnitude += std::fabs(prod);
        }
      }
      const long double old = beta == T(0) ? 0.0L : static_cast<long double>(c.at(i, j));
      r.value[slot * r.n + j] = alpha * sum + beta * old;
      r.bound[slot * r.n + j] =
          2 * (k + 2) * eps * (std::fabs(alpha) * magnitude + std::fabs(beta * old)) +
          std::numeric_limits<T>::denorm_min();
    }
  }
  return r;
}

template <class T>
Reference<T> reference_gemm(T alpha, const Matrix<T>& a, Transpose ta, const Matrix<T>& b,
                            Transpose tb, T beta, const Matrix<T>& c) {
  std::vector<std::int64_t> every_row(static_cast<std::size_t>(c.rows));
  for (std::int64_t i = 0; i < c.rows; ++i) every_row[static_cast<std::size_t>(i)] = i;
  return reference_gemm_rows(alpha, a, ta, b, tb, beta, c, std::move(every_row));
}

// Empty string when c matches the reference within bound on the rows it holds, else a description of the first miss.
template <class T>
std::string compare(const Matrix<T>& c, const Reference<T>& r) {
  for (std::size_t slot = 0; slot < r.rows.size(); ++slot)
    for (std::int64_t j = 0; j < r.n; ++j) {
      const std::int64_t i = r.rows[slot];
      const long double got = c.at(i, j);
      const long double want = r.at(slot, j);
      const long double err = std::fabs(got - want);
      if (!(err <= r.tol(slot, j)))
        return "C(" + std::to_string(i) + "," + std::to_string(j) + ") = " +
               std::to_string(static_cast<double>(got)) + ", expected " +
               std::to_string(static_cast<double>(want)) + " (tolerance " +
               std::to_string(static_cast<double>(r.tol(i, j))) + ")";
    }
  if (!c.gaps_intact()) return "C's padding between rows/columns was written";
  return "";
}

}  // namespace ridge::test
