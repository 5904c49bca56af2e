// The int8 GEMM: the product on the driver's packed path, then alpha, beta and the offset.
#include "gemm/gemm_int8.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gemm/driver.hpp"

namespace ridge::gemm_detail {
namespace {

// As oneDNN's reference: saturated to int32, then rounded to nearest even (the default mode).
std::int32_t saturate_round(double v) {
  return static_cast<std::int32_t>(std::nearbyint(std::clamp(v, -2147483648.0, 2147483647.0)));
}

// The product p (its C that of the call, m x n transposed), run by run_product into C, or into a
// buffer of its own where beta needs C's values after it (allocated before C is written); then
// alpha, beta and the offset.
template <class Problem, class RunProduct>
void with_scaling(Problem p, IntOffset offset, float alpha, float beta, std::int32_t* c,
                  std::int64_t ldc, const std::int32_t* co, const RunProduct& run_product) {
  const std::int64_t m = p.n, n = p.m;
  std::vector<std::int32_t> product;
  if (beta != 0) {
    product.resize(static_cast<std::size_t>(m * n));
    p.c = product.data();
    p.ldc = n;
  }
  run_product(p);
  if (alpha == 1 && beta == 0 && offset == IntOffset::fixed && co[0] == 0) return;
  const double scale = alpha, c_scale = beta;
  for (std::int64_t i = 0; i < m; ++i) {
    const std::int32_t* ab = p.c + i * p.ldc;
    std::int32_t* ci = c + i * ldc;
    for (std::int64_t j = 0; j < n; ++j) {
      const std::int32_t o = co[offset == IntOffset::row ? j : offset == IntOffset::column ? i : 0];
      const double old = beta == 0 ? 0.0 : c_scale * ci[j];
      ci[j] = saturate_round(scale * ab[j] + old + o);
    }
  }
}

// Row-major C is solved as its transpose, column-major: C^T = op(B)^T op(A)^T, whose B is op(A)
// (set here) and whose A is op(B) (set by the caller).
template <class SourceA>
kernels::GemmProblem<std::int32_t, std::int8_t, SourceA> transposed_problem(
    bool trans_a, std::int64_t m, std::int64_t n, std::int64_t k, const SourceA* a,
    std::int64_t lda, SourceA ao, std::int32_t* c, std::int64_t ldc) {
  kernels::GemmProblem<std::int32_t, std::int8_t, SourceA> p;
  p.m = n;
  p.n = m;
  p.k = k;
  p.b = a;
  p.b_rs = trans_a ? lda : 1;
  p.b_cs = trans_a ? 1 : lda;
  p.b_zero = ao;
  p.c = c;
  p.ldc = ldc;
  return p;
}

}  // namespace

template <class SourceA>
void gemm_int8(bool trans_a, bool trans_b, IntOffset offset, std::int64_t m, std::int64_t n,
               std::int64_t k, float alpha, const SourceA* a, std::int64_t lda, SourceA ao,
               const std::int8_t* b, std::int64_t ldb, std::int8_t bo, float beta, std::int32_t* c,
               std::int64_t ldc, const std::int32_t* co) {
  if (m == 0 || n == 0) return;
  auto p = transposed_problem(trans_a, m, n, k, a, lda, ao, c, ldc);
  p.a = b;
  p.a_rs = trans_b ? ldb : 1;
  p.a_cs = trans_b ? 1 : ldb;
  p.a_zero = bo;
  with_scaling(p, offset, alpha, beta, c, ldc, co, [](const auto& q) { run(q); });
}

template <class SourceA>
void gemm_int8_packed(bool trans_a, IntOffset offset, std::int64_t m, std::int64_t n,
                      std::int64_t k, float alpha, const SourceA* a, std::int64_t lda, SourceA ao,
                      const PrepackedA& b, std::int8_t bo, float beta, std::int32_t* c,
                      std::int64_t ldc, const std::int32_t* co) {
  if (m == 0 || n == 0) return;
  auto p = transposed_problem(trans_a, m, n, k, a, lda, ao, c, ldc);
  p.a_zero = bo;
  with_scaling(p, offset, alpha, beta, c, ldc, co, [&](const auto& q) { run_prepacked(q, b); });
}

template void gemm_int8(bool, bool, IntOffset, std::int64_t, std::int64_t, std::int64_t, float,
                        const std::uint8_t*, std::int64_t, std::uint8_t, const std::int8_t*,
                        std::int64_t, std::int8_t, float, std::int32_t*, std::int64_t,
                        const std::int32_t*);
template void gemm_int8(bool, bool, IntOffset, std::int64_t, std::int64_t, std::int64_t, float,
                        const std::int8_t*, std::int64_t, std::int8_t, const std::int8_t*,
                        std::int64_t, std::int8_t, float, std::int32_t*, std::int64_t,
                        const std::int32_t*);
template void gemm_int8_packed(bool, IntOffset, std::int64_t, std::int64_t, std::int64_t, float,
                               const std::uint8_t*, std::int64_t, std::uint8_t, const PrepackedA&,
                               std::int8_t, float, std::int32_t*, std::int64_t,
                               const std::int32_t*);
template void gemm_int8_packed(bool, IntOffset, std::int64_t, std::int64_t, std::int64_t, float,
                               const std::int8_t*, std::int64_t, std::int8_t, const PrepackedA&,
                               std::int8_t, float, std::int32_t*, std::int64_t,
                               const std::int32_t*);

}  // namespace ridge::gemm_detail
