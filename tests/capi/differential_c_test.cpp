// Random products through the C entry points, on the ISA path the suite runs on: cblas_sgemm,
// cblas_dgemm and cblas_sbgemm against a double reference within the error bound of a k-term
// sum, ridge_gemm_u8s8s32 and ridge_gemm_s8s8s32 exactly against 64-bit integers, and each with
// B packed beforehand bit for bit as the unpacked call. Shapes are drawn around the tiles' and
// blocks' edges (one row or column of C included), in either order and transposition, with
// leading dimensions past the extent, alpha and beta both special and rounding, on 1 to 3
// threads. The hand-written tests pin each path; these mix the choices that pick the paths and
// size their workspaces. Each call runs on a thread of its own, whose workspace (kept per
// calling thread) that call alone sizes, so that the sanitizer build sees any block that writes
// past its part.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "gemm/reference.hpp"
#include "ridge/bf16.hpp"
#include "ridge/ridge.h"

namespace ridge::test {
namespace {

constexpr int kProducts = 400;  // of each kind, a few seconds under the sanitizers

struct Draw {
  std::mt19937 rng;
  int pick(std::initializer_list<int> values) {
    return values.begin()[std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng)];
  }
  bool coin(int one_in) { return std::uniform_int_distribution<int>(1, one_in)(rng) == 1; }
  std::int64_t size() {
    if (coin(4)) return std::uniform_int_distribution<int>(0, 300)(rng);
    return pick({0,  1,  2,  3,  5,  7,  8,   9,   13,  16,  17,  31,  32,  33,  47,  48,
                 49, 63, 64, 65, 96, 97, 127, 128, 129, 255, 257, 383, 511, 513, 597, 1000});
  }
};

// op(A) m x k, op(B) k x n, C m x n; the pads are the leading dimensions past the extent.
struct Product {
  std::int64_t m = 0, n = 0, k = 0;
  bool row_major = true, trans_a = false, trans_b = false;
  int pad_a = 0, pad_b = 0, pad_c = 0;

  std::string describe() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
           (row_major ? " row-major " : " column-major ") + (trans_a ? "t" : "n") +
           (trans_b ? "t" : "n") + " pads " + std::to_string(pad_a) + "/" + std::to_string(pad_b) +
           "/" + std::to_string(pad_c) + ", " + std::to_string(ridge_get_num_threads()) +
           " threads";
  }
  Layout layout() const { return row_major ? Layout::row_major : Layout::col_major; }
  template <class T>
  Matrix<T> a() const {
    return Matrix<T>(trans_a ? k : m, trans_a ? m : k, layout(), pad_a);
  }
  template <class T>
  Matrix<T> b() const {
    return Matrix<T>(trans_b ? n : k, trans_b ? k : n, layout(), pad_b);
  }
  template <class T>
  T a_at(const Matrix<T>& a, std::int64_t i, std::int64_t p) const {
    return trans_a ? a.at(p, i) : a.at(i, p);
  }
  template <class T>
  T b_at(const Matrix<T>& b, std::int64_t p, std::int64_t j) const {
    return trans_b ? b.at(j, p) : b.at(p, j);
  }
};

// A product of at most a few million multiply-adds (the reference stays quick under the
// sanitizers); also sets the thread count it runs on.
Product draw_product(Draw& d, bool row_major_only) {
  Product p;
  do {
    p.m = d.coin(6) ? 1 : d.size();
    p.n = d.coin(8) ? 1 : d.size();
    p.k = d.size();
  } while (p.m * p.n * p.k > 3'000'000);
  p.row_major = row_major_only || d.coin(2);
  p.trans_a = d.coin(2);
  p.trans_b = d.coin(2);
  p.pad_a = d.coin(3) ? d.pick({1, 3, 16, 77}) : 0;
  p.pad_b = d.coin(3) ? d.pick({1, 5, 64}) : 0;
  p.pad_c = d.coin(3) ? d.pick({1, 2, 33}) : 0;
  ridge_set_num_threads(d.pick({1, 2, 3}));
  return p;
}

// C (float or double) against alpha op(A) op(B) + beta C0 in double, within the bound of a k-term
// sum rounded in T, and untouched outside the m x n elements.
template <class T, class AValue, class BValue>
void expect_close(const Product& p, double alpha, double beta, const Matrix<T>& c0,
                  const Matrix<T>& c, const AValue& a_value, const BValue& b_value) {
  const double u = std::ldexp(1.0, -std::numeric_limits<T>::digits);
  for (std::int64_t i = 0; i < p.m; ++i) {
    for (std::int64_t j = 0; j < p.n; ++j) {
      double sum = 0, magnitude = 0;
      for (std::int64_t q = 0; q < p.k; ++q) {
        const double term = a_value(i, q) * b_value(q, j);
        sum += term;
        magnitude += std::fabs(term);
      }
      const double scaled_c = beta == 0 ? 0.0 : beta * static_cast<double>(c0.at(i, j));
      const double want = alpha * sum + scaled_c;
      const double bound = 2.0 * static_cast<double>(p.k + 3) * u *
                           (std::fabs(alpha) * magnitude + std::fabs(scaled_c));
      ASSERT_LE(std::fabs(static_cast<double>(c.at(i, j)) - want), bound)
          << p.describe() << " alpha " << alpha << " beta " << beta << " at " << i << ", " << j;
    }
  }
  EXPECT_TRUE(c.gaps_intact()) << p.describe();
}

bool same_bits(const std::vector<float>& x, const std::vector<float>& y) {
  return x.size() == y.size() &&
         (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0);
}

CBLAS_TRANSPOSE trans(bool t) { return t ? CblasTrans : CblasNoTrans; }

template <class Call>
void on_own_thread(const Call& call) {
  std::thread(call).join();
}

// Whether every element of `after` outside the matrix (a row-major gap) is as in `before`.
template <class T>
bool gaps_as_before(const Matrix<T>& before, const Matrix<T>& after) {
  for (std::size_t idx = 0; idx < after.storage.size(); ++idx)
    if (static_cast<std::int64_t>(idx) % after.ld >= after.cols &&
        after.storage[idx] != before.storage[idx])
      return false;
  return true;
}

// The row-major product again on B packed by `pack` and multiplied by `product` (ridge_sgemm_*
// or ridge_sbgemm_*): bit for bit what the unpacked call left in `got`.
template <class S, class Pack, class Multiply>
void expect_packed_as_unpacked(const Product& p, Pack pack, Multiply product, const Matrix<S>& a,
                               const Matrix<S>& b, float alpha, float beta, const Matrix<float>& c,
                               const Matrix<float>& got) {
  ridge_packed_matrix* packed = nullptr;
  ASSERT_EQ(pack(trans(p.trans_b), p.k, p.n, b.data(), b.ld, &packed), 0);
  Matrix<float> again = c;
  int status = -1;
  on_own_thread([&] {
    status = product(trans(p.trans_a), p.m, p.n, p.k, alpha, a.data(), a.ld, packed, beta,
                     again.data(), again.ld);
  });
  ridge_packed_matrix_destroy(packed);
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(same_bits(again.storage, got.storage)) << p.describe() << " packed";
}

// One product through cblas_sgemm or cblas_dgemm against the reference, and for float
// row-major the same product on B packed, bit for bit.
template <class T>
void float_product(const Product& p, T alpha, T beta, std::mt19937& rng) {
  Matrix<T> a = p.a<T>(), b = p.b<T>(), c(p.m, p.n, p.layout(), p.pad_c);
  a.fill_random(rng);
  b.fill_random(rng);
  c.fill_random(rng);
  Matrix<T> got = c;
  on_own_thread([&] {
    const auto gemm = [] {
      if constexpr (std::is_same_v<T, float>) {
        return cblas_sgemm;
      } else {
        return cblas_dgemm;
      }
    }();
    gemm(p.row_major ? CblasRowMajor : CblasColMajor, trans(p.trans_a), trans(p.trans_b),
         static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k), alpha, a.data(),
         static_cast<int>(a.ld), b.data(), static_cast<int>(b.ld), beta, got.data(),
         static_cast<int>(got.ld));
  });
  expect_close(
      p, alpha, beta, c, got,
      [&](std::int64_t i, std::int64_t q) { return double{p.a_at(a, i, q)}; },
      [&](std::int64_t q, std::int64_t j) { return double{p.b_at(b, q, j)}; });
  if constexpr (std::is_same_v<T, float>) {
    if (p.row_major)  // the packed products are row-major
      expect_packed_as_unpacked(p, ridge_sgemm_pack_b, ridge_sgemm_packed, a, b, alpha, beta, c,
                                got);
  }
}

TEST(DifferentialC, FloatAndDoubleProducts) {
  Draw d{std::mt19937(41)};
  const int saved = ridge_get_num_threads();
  for (int t = 0; t < kProducts; ++t) {
    const Product p = draw_product(d, false);
    const double alpha = d.pick({1, 1, -1, 0, 2}) * (d.coin(3) ? 0.37 : 1.0);
    const double beta = d.pick({0, 0, 1, -1, 3}) * (d.coin(3) ? 0.3 : 1.0);
    if (d.coin(3)) {
      float_product<double>(p, alpha, beta, d.rng);
    } else {
      float_product<float>(p, static_cast<float>(alpha), static_cast<float>(beta), d.rng);
    }
  }
  ridge_set_num_threads(saved);
}

TEST(DifferentialC, Bf16Products) {
  Draw d{std::mt19937(43)};
  const int saved = ridge_get_num_threads();
  for (int t = 0; t < kProducts; ++t) {
    const Product p = draw_product(d, false);
    const float alpha = static_cast<float>(d.pick({1, 1, -1, 2}) * (d.coin(3) ? 0.37 : 1.0));
    const float beta = static_cast<float>(d.pick({0, 0, 1, -1}) * (d.coin(3) ? 0.3 : 1.0));
    Matrix<std::uint16_t> a = p.a<std::uint16_t>(), b = p.b<std::uint16_t>();
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (Matrix<std::uint16_t>* x : {&a, &b})
      for (std::int64_t i = 0; i < x->rows; ++i)
        for (std::int64_t j = 0; j < x->cols; ++j) x->at(i, j) = to_bf16(value(d.rng)).bits;
    Matrix<float> c(p.m, p.n, p.layout(), p.pad_c);
    c.fill_random(d.rng);
    Matrix<float> got = c;
    on_own_thread([&] {
      cblas_sbgemm(p.row_major ? CblasRowMajor : CblasColMajor, trans(p.trans_a), trans(p.trans_b),
                   static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k), alpha,
                   a.data(), static_cast<int>(a.ld), b.data(), static_cast<int>(b.ld), beta,
                   got.data(), static_cast<int>(got.ld));
    });
    // bf16 products are exact in float: the bound is float's.
    expect_close(
        p, alpha, beta, c, got,
        [&](std::int64_t i, std::int64_t q) { return double{to_float(bf16{p.a_at(a, i, q)})}; },
        [&](std::int64_t q, std::int64_t j) { return double{to_float(bf16{p.b_at(b, q, j)})}; });
    if (p.row_major)
      expect_packed_as_unpacked(p, ridge_sbgemm_pack_b, ridge_sbgemm_packed, a, b, alpha, beta, c,
                                got);
  }
  ridge_set_num_threads(saved);
}

// u8 x s8 or s8 x s8 with zero points and each kind of offset, exact while C fits in int32, and
// all-extreme operands (255 or -128 against -128) a quarter of the time.
template <class A>
void int8_products(Draw& d) {
  for (int t = 0; t < kProducts; ++t) {
    const Product p = draw_product(d, true);
    const bool extreme = d.coin(4);
    Matrix<A> a = p.a<A>();
    Matrix<std::int8_t> b = p.b<std::int8_t>();
    for (std::int64_t i = 0; i < a.rows; ++i)
      for (std::int64_t j = 0; j < a.cols; ++j)
        a.at(i, j) = static_cast<A>(extreme ? (std::is_signed_v<A> ? -128 : 255) : d.rng());
    for (std::int64_t i = 0; i < b.rows; ++i)
      for (std::int64_t j = 0; j < b.cols; ++j)
        b.at(i, j) = static_cast<std::int8_t>(extreme ? -128 : static_cast<int>(d.rng() % 256));
    const A ao = extreme || d.coin(2) ? A{0} : static_cast<A>(d.rng());
    const std::int8_t bo = extreme ? 127 : static_cast<std::int8_t>(d.coin(2) ? 0 : d.rng() % 256);
    const char offsetc = "FCR"[d.rng() % 3];
    std::vector<std::int32_t> co(static_cast<std::size_t>(std::max(p.m, p.n) + 1));
    for (std::int32_t& x : co) x = static_cast<std::int32_t>(d.rng() % 2001) - 1000;
    const float beta = static_cast<float>(d.pick({0, 1}));
    Matrix<std::int32_t> c(p.m, p.n, Layout::row_major, p.pad_c);
    for (std::int64_t i = 0; i < p.m; ++i)
      for (std::int64_t j = 0; j < p.n; ++j)
        c.at(i, j) = static_cast<std::int32_t>(d.rng() % 100001) - 50000;
    Matrix<std::int32_t> got = c;
    const char ta = p.trans_a ? 'T' : 'N', tb = p.trans_b ? 'T' : 'N';
    int status = -1;
    on_own_thread([&] {
      if constexpr (std::is_signed_v<A>) {
        status = ridge_gemm_s8s8s32(ta, tb, offsetc, p.m, p.n, p.k, 1.0f, a.data(), a.ld, ao,
                                    b.data(), b.ld, bo, beta, got.data(), got.ld, co.data());
      } else {
        status = ridge_gemm_u8s8s32(ta, tb, offsetc, p.m, p.n, p.k, 1.0f, a.data(), a.ld, ao,
                                    b.data(), b.ld, bo, beta, got.data(), got.ld, co.data());
      }
    });
    ASSERT_EQ(status, 0) << p.describe();
    for (std::int64_t i = 0; i < p.m; ++i) {
      for (std::int64_t j = 0; j < p.n; ++j) {
        std::int64_t sum = 0;
        for (std::int64_t q = 0; q < p.k; ++q)
          sum += (std::int64_t{p.a_at(a, i, q)} - ao) * (std::int64_t{p.b_at(b, q, j)} - bo);
        const std::int64_t offset = co[static_cast<std::size_t>(offsetc == 'F'   ? 0
                                                                : offsetc == 'C' ? i
                                                                                 : j)];
        const std::int64_t want = sum + (beta == 1 ? c.at(i, j) : 0) + offset;
        if (want < INT32_MIN || want > INT32_MAX) continue;  // past the exact range
        ASSERT_EQ(got.at(i, j), want) << p.describe() << " offset " << offsetc;
      }
    }
    EXPECT_TRUE(gaps_as_before(c, got)) << p.describe();
    ridge_packed_matrix* packed = nullptr;
    ASSERT_EQ(ridge_gemm_s8_pack_b(tb, p.k, p.n, b.data(), b.ld, bo, &packed), 0);
    Matrix<std::int32_t> again = c;
    on_own_thread([&] {
      if constexpr (std::is_signed_v<A>) {
        status = ridge_gemm_s8s8s32_packed(ta, offsetc, p.m, p.n, p.k, 1.0f, a.data(), a.ld, ao,
                                           packed, beta, again.data(), again.ld, co.data());
      } else {
        status = ridge_gemm_u8s8s32_packed(ta, offsetc, p.m, p.n, p.k, 1.0f, a.data(), a.ld, ao,
                                           packed, beta, again.data(), again.ld, co.data());
      }
    });
    ridge_packed_matrix_destroy(packed);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(again.storage, got.storage) << p.describe() << " packed";
  }
}

TEST(DifferentialC, Int8Products) {
  Draw d{std::mt19937(47)};
  const int saved = ridge_get_num_threads();
  int8_products<std::uint8_t>(d);
  int8_products<std::int8_t>(d);
  ridge_set_num_threads(saved);
}

}  // namespace
}  // namespace ridge::test
