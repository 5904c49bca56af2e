// Test support for GEMV: strided vectors with sentinels in their gaps, and a reference
// y = alpha * op(A) x + beta * y in extended precision with its error bound.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gemm/reference.hpp"
#include "ridge/gemv.hpp"

namespace ridge::test {

// `size` elements `inc` apart (inc < 0: element 0 last in memory, as BLAS stores it), in exactly
// 1 + (size - 1) * |inc| elements, so AddressSanitizer sees a read past either end; the gaps hold
// a NaN sentinel the kernels must neither use nor overwrite.
template <class T>
struct StridedVector {
  std::int64_t size = 0, inc = 1;
  std::vector<T> storage;

  StridedVector(std::int64_t n, std::int64_t increment) : size(n), inc(increment) {
    storage.assign(n == 0 ? 0 : static_cast<std::size_t>(1 + (n - 1) * std::llabs(inc)),
                   std::numeric_limits<T>::quiet_NaN());
  }
  // The lowest-addressed element, as BLAS takes it.
  T* blas_pointer() { return storage.empty() ? nullptr : storage.data(); }
  std::int64_t index(std::int64_t i) const { return inc > 0 ? i * inc : (size - 1 - i) * -inc; }
  T& at(std::int64_t i) { return storage[static_cast<std::size_t>(index(i))]; }
  T at(std::int64_t i) const { return storage[static_cast<std::size_t>(index(i))]; }
  // Element 0, as ridge::VectorView takes it.
  VectorView<T> view() { return {size == 0 ? nullptr : &at(0), size, inc}; }

  void fill_random(std::mt19937& rng) {
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (std::int64_t i = 0; i < size; ++i) at(i) = static_cast<T>(dist(rng));
  }
  bool gaps_intact() const {
    const std::int64_t step = std::llabs(inc);
    for (std::size_t idx = 0; idx < storage.size(); ++idx)
      if (static_cast<std::int64_t>(idx) % step != 0 && !std::isnan(storage[idx])) return false;
    return true;
  }
};

// y = alpha * op(A) x + beta * y in long double, each element with the bound of gemm's reference.
template <class T>
struct GemvReference {
  std::vector<long double> value, bound;
};

template <class T>
GemvReference<T> reference_gemv(T alpha, const Matrix<T>& a, Transpose t, const StridedVector<T>& x,
                                T beta, const StridedVector<T>& y) {
  GemvReference<T> r;
  const long double eps = std::numeric_limits<T>::epsilon();
  for (std::int64_t i = 0; i < y.size; ++i) {
    long double sum = 0, magnitude = 0;
    if (alpha != T(0)) {
      for (std::int64_t j = 0; j < x.size; ++j) {
        const long double prod = static_cast<long double>(op_at(a, t, i, j)) * x.at(j);
        sum += prod;
        magnitude += std::fabs(prod);
      }
    }
    const long double old = beta == T(0) ? 0.0L : static_cast<long double>(y.at(i));
    r.value.push_back(alpha * sum + beta * old);
    r.bound.push_back(2 * (x.size + 2) * eps *
                          (std::fabs(alpha) * magnitude + std::fabs(beta * old)) +
                      std::numeric_limits<T>::denorm_min());
  }
  return r;
}

// "" when y matches the reference within bound (exactly where it is infinite, NaN where it is
// NaN), else the first miss.
template <class T>
std::string compare(const StridedVector<T>& y, const GemvReference<T>& r) {
  for (std::int64_t i = 0; i < y.size; ++i) {
    const long double got = y.at(i), want = r.value[static_cast<std::size_t>(i)];
    if (got == want || (std::isnan(want) ? std::isnan(got) : std::fabs(got - want) <= r.bound[i]))
      continue;
    return "y(" + std::to_string(i) + ") = " + std::to_string(static_cast<double>(got)) +
           ", expected " + std::to_string(static_cast<double>(want));
  }
  if (!y.gaps_intact()) return "y's gaps between elements were written";
  return "";
}

}  // namespace ridge::test
