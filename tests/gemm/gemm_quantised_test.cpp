// The GEMMs whose result is converted as it is stored: the quantised int8 product dequantised
// into a float C (ridge::gemm on uint8 / int8 views with zero points), and any product rounded
// into a bf16 C. Each is bit-identical to the unfused sequence -- the int32 product of
// ridge_gemm_u8s8s32 / s8s8s32, converted, scaled and put through the epilogue's operations;
// the float product then rounded to bf16 -- on every path the driver takes (one row, one column,
// dot products, packed over several depth slices, K = 0), with padded leading dimensions and 1
// and 2 threads; the rounding itself is checked against ridge::to_bf16 on every ISA path, and the
// dequantised values against 64-bit integers where float holds them exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "gemm/dispatch.hpp"
#include "gemm/reference.hpp"
#include "gemm/unfused_epilogue.hpp"
#include "kernels/epilogue_kernels.hpp"
#include "ridge/ridge.h"
#include "ridge/ridge.hpp"
#include "support/invalid_argument.hpp"
#include "support/isa_paths.hpp"

namespace ridge::test {
namespace {

// A bf16 pattern no rounding gives (a NaN with a payload): the padding of a bf16 C.
constexpr std::uint16_t kGapBits = 0x7fa5;

// The ISA whose float traits the int8 path's epilogue runs on: the one its tiles run (AVX-512's
// for the tiles of its extensions, avx512_vnni).
template <class SourceA>
Isa int8_isa() {
  const std::string name =
      gemm_detail::gemm_kernels<std::int32_t, std::int8_t, SourceA>(active_isa()).kernels.isa;
  for (Isa isa : kAllIsas)
    if (name == isa_name(isa) || name.starts_with(std::string(isa_name(isa)) + "_")) return isa;
  ADD_FAILURE() << "no ISA named " << name;
  return Isa::generic;
}

// A row-major bf16 C with padding between its rows.
struct Bf16Result {
  std::int64_t rows, cols, ld;
  std::vector<bf16> storage;
  Bf16Result(std::int64_t m, std::int64_t n, std::int64_t ld_extra)
      : rows(m),
        cols(n),
        ld(std::max<std::int64_t>(1, n) + ld_extra),
        storage(static_cast<std::size_t>(std::max<std::int64_t>(1, m * ld)), bf16{kGapBits}) {}
  MatrixView<bf16> view() { return {storage.data(), rows, cols, ld, Layout::row_major}; }
  std::uint16_t at(std::int64_t i, std::int64_t j) const {
    return storage[static_cast<std::size_t>(i * ld + j)].bits;
  }
  bool gaps_intact() const {
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = cols; j < ld; ++j)
        if (at(i, j) != kGapBits) return false;
    return true;
  }
};

struct Shape {
  std::int64_t m, n, k;
  bool ta, tb;
};

// One row (the one-column kernel of the internal problem), one column, several depth slices,
// block edges, a few rows of x against W's rows (x W^T: dot products, or the AMX tiles on W's
// rows in place), K = 0 (the epilogue alone) and an empty C.
const Shape kShapes[] = {
    {1, 1, 1, false, false},       {1, 67, 301, false, false}, {1, 40, 64, false, true},
    {37, 1, 50, false, false},     {16, 16, 16, false, false}, {33, 29, 17, true, false},
    {100, 130, 700, false, false}, {257, 3, 1000, true, true}, {5, 7, 0, false, false},
    {300, 500, 0, false, false},   {0, 5, 5, false, false},    {40, 70, 300, false, true},
};

std::string describe(const Shape& s, float alpha, int e, int threads) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
         (s.ta ? " A^T" : "") + (s.tb ? " B^T" : "") + " alpha " + std::to_string(alpha) +
         " epilogue " + std::to_string(e) + ", " + std::to_string(threads) + " threads";
}

// The operands of one int8 product (row-major, rows padded) and what its epilogues read.
template <class SourceA>
struct Int8Case {
  Shape s;
  std::int64_t lda, ldb;
  std::vector<SourceA> a;
  std::vector<std::int8_t> b;
  std::vector<float> per_column, per_row, residual;
  Int8Case(const Shape& shape, std::mt19937& rng)
      : s(shape),
        lda((s.ta ? s.m : s.k) + 3),
        ldb((s.tb ? s.k : s.n) + 2),
        a(static_cast<std::size_t>(std::max<std::int64_t>(1, (s.ta ? s.k : s.m) * lda))),
        b(static_cast<std::size_t>(std::max<std::int64_t>(1, (s.tb ? s.n : s.k) * ldb))),
        per_column(static_cast<std::size_t>(std::max<std::int64_t>(1, s.n))),
        per_row(static_cast<std::size_t>(std::max<std::int64_t>(1, s.m))),
        residual(static_cast<std::size_t>(std::max<std::int64_t>(1, s.m * s.n))) {
    std::uniform_int_distribution<int> ai(std::is_signed_v<SourceA> ? -128 : 0,
                                          std::is_signed_v<SourceA> ? 127 : 255);
    std::uniform_int_distribution<int> bi(-128, 127);
    for (SourceA& x : a) x = static_cast<SourceA>(ai(rng));
    for (std::int8_t& x : b) x = static_cast<std::int8_t>(bi(rng));
    std::uniform_real_distribution<float> scale(0.5f, 2.0f), shift(-3.0f, 3.0f);
    for (float& x : per_column) x = scale(rng);
    for (float& x : per_row) x = shift(rng);
    for (float& x : residual) x = shift(rng);
  }
  MatrixView<const SourceA> a_view() const {
    return {a.data(), s.ta ? s.k : s.m,  s.ta ? s.m : s.k,
            lda,      Layout::row_major, s.ta ? Transpose::transpose : Transpose::none};
  }
  MatrixView<const std::int8_t> b_view() const {
    return {b.data(), s.tb ? s.n : s.k,  s.tb ? s.k : s.n,
            ldb,      Layout::row_major, s.tb ? Transpose::transpose : Transpose::none};
  }
  // Dequantisation with a per-output-channel scale, then bias, GELU and a residual; ReLU and a
  // clamp; nothing (the per-tensor scale alone); a bias, GELU (erf) and a residual after the
  // per-tensor scale (the tiles' common form, finished a column at a time beside them).
  std::vector<Epilogue> epilogues() const {
    std::vector<Epilogue> list(4);
    list[0]
        .scale_per_column(per_column.data())
        .add_per_row(per_row.data())
        .activation(Activation::gelu_tanh)
        .add_matrix(residual.data(), std::max<std::int64_t>(1, s.n));
    list[1].activation(Activation::relu).clamp(0.0f, 2000.0f);
    list[3]
        .add_per_column(per_column.data())
        .activation(Activation::gelu_erf)
        .add_matrix(residual.data(), std::max<std::int64_t>(1, s.n));
    return list;
  }
  // The int32 product, exact (the C API, tested against 64-bit integers in gemm_int8_test.cpp).
  std::vector<std::int32_t> product(SourceA a_zero, std::int8_t b_zero) const {
    std::vector<std::int32_t> c(static_cast<std::size_t>(std::max<std::int64_t>(1, s.m * s.n)));
    const std::int32_t zero = 0;
    int status = 0;
    if constexpr (std::is_signed_v<SourceA>) {
      status = ridge_gemm_s8s8s32(s.ta ? 'T' : 'N', s.tb ? 'T' : 'N', 'F', s.m, s.n, s.k, 1.0f,
                                  a.data(), lda, a_zero, b.data(), ldb, b_zero, 0.0f, c.data(),
                                  std::max<std::int64_t>(1, s.n), &zero);
    } else {
      status = ridge_gemm_u8s8s32(s.ta ? 'T' : 'N', s.tb ? 'T' : 'N', 'F', s.m, s.n, s.k, 1.0f,
                                  a.data(), lda, a_zero, b.data(), ldb, b_zero, 0.0f, c.data(),
                                  std::max<std::int64_t>(1, s.n), &zero);
    }
    EXPECT_EQ(status, 0);
    return c;
  }
};

template <class SourceA>
void dequantised_matches_the_sequence() {
  std::mt19937 rng(11);
  const int saved_threads = num_threads();
  const Isa isa = int8_isa<SourceA>();
  const SourceA a_zero = std::is_signed_v<SourceA> ? SourceA(-3) : SourceA(131);
  const std::int8_t b_zero = 5;
  for (const Shape& s : kShapes) {
    const Int8Case<SourceA> t(s, rng);
    const std::vector<std::int32_t> sums = t.product(a_zero, b_zero);
    const std::vector<Epilogue> list = t.epilogues();
    for (float alpha : {1.0f, 0.0173f, -3.0f}) {
      for (int e = 0; e < static_cast<int>(list.size()); ++e) {
        // The unfused sequence, and its bf16 rounding.
        Matrix<float> want(s.m, s.n, Layout::row_major, 4);
        for (std::int64_t i = 0; i < s.m; ++i)
          for (std::int64_t j = 0; j < s.n; ++j)
            want.at(i, j) = unfused_operations(list[e], isa, Layout::row_major, i, j,
                                               static_cast<float>(sums[i * s.n + j]) * alpha);
        for (int threads : {1, 2}) {
          set_num_threads(threads);
          const std::string what = describe(s, alpha, e, threads);
          Matrix<float> got(s.m, s.n, Layout::row_major, 4);
          gemm(alpha, t.a_view(), a_zero, t.b_view(), b_zero, got.view(), list[e]);
          Bf16Result rounded(s.m, s.n, 3);
          gemm(alpha, t.a_view(), a_zero, t.b_view(), b_zero, rounded.view(), list[e]);
          bool same = true, same_rounded = true;
          for (std::int64_t i = 0; i < s.m; ++i)
            for (std::int64_t j = 0; j < s.n; ++j) {
              same = same && same_bits(got.at(i, j), want.at(i, j));
              same_rounded = same_rounded && rounded.at(i, j) == to_bf16(want.at(i, j)).bits;
            }
          EXPECT_TRUE(same) << what;
          EXPECT_TRUE(same_rounded) << what << " (bf16 C)";
          EXPECT_TRUE(got.gaps_intact()) << what;
          EXPECT_TRUE(rounded.gaps_intact()) << what << " (bf16 C)";
        }
      }
    }
  }
  set_num_threads(saved_threads);
}

TEST(GemmQuantised, U8S8DequantisedMatchesTheSequenceBitForBit) {
  dequantised_matches_the_sequence<std::uint8_t>();
}
TEST(GemmQuantised, S8S8DequantisedMatchesTheSequenceBitForBit) {
  dequantised_matches_the_sequence<std::int8_t>();
}

// With alpha = 1 and sums below 2^24 the float C holds the exact integer product: against 64-bit
// integers, with the extreme operands (all 255 less zero point 0 against all -128 less 127).
TEST(GemmQuantised, ExactIntegersAgainstSixtyFourBitArithmetic) {
  const std::int64_t m = 19, n = 23, k = 250;  // |sum| <= 250 * 255 * 255 < 2^24
  std::vector<std::uint8_t> a(m * k, 255);
  std::vector<std::int8_t> b(k * n, -128);
  std::mt19937 rng(3);
  for (std::size_t i = 0; i < a.size(); i += 7) a[i] = static_cast<std::uint8_t>(rng() % 256);
  for (std::size_t i = 0; i < b.size(); i += 5) b[i] = static_cast<std::int8_t>(rng() % 256);
  for (std::uint8_t a_zero : {0, 200}) {
    Matrix<float> c(m, n, Layout::row_major);
    gemm(1.0f, row_major<const std::uint8_t>(a.data(), m, k), a_zero,
         row_major<const std::int8_t>(b.data(), k, n), std::int8_t{127}, c.view());
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        std::int64_t want = 0;
        for (std::int64_t p = 0; p < k; ++p)
          want += (std::int64_t{a[i * k + p]} - a_zero) * (std::int64_t{b[p * n + j]} - 127);
        ASSERT_EQ(c.at(i, j), static_cast<float>(want)) << i << ", " << j;
      }
  }
}

// Float and bf16 operands into a bf16 C: the float C of the same call with beta = 0, each element
// rounded, on every path of the float GEMM, both layouts.
TEST(GemmQuantised, Bf16CIsTheFloatCRounded) {
  std::mt19937 rng(5);
  const int saved_threads = num_threads();
  std::vector<float> bias(600), residual(600 * 600);
  for (float& x : bias) x = std::uniform_real_distribution<float>(-1, 1)(rng);
  for (float& x : residual) x = std::uniform_real_distribution<float>(-1, 1)(rng);
  for (const Shape& s : kShapes) {
    for (Layout layout : {Layout::row_major, Layout::col_major}) {
      Matrix<float> a(s.ta ? s.k : s.m, s.ta ? s.m : s.k, layout, 2);
      Matrix<float> b(s.tb ? s.n : s.k, s.tb ? s.k : s.n, layout, 1);
      a.fill_random(rng);
      b.fill_random(rng);
      std::vector<bf16> a16(a.storage.size()), b16(b.storage.size());
      for (std::size_t i = 0; i < a16.size(); ++i) a16[i] = to_bf16(a.storage[i]);
      for (std::size_t i = 0; i < b16.size(); ++i) b16[i] = to_bf16(b.storage[i]);
      const MatrixView<const bf16> a16v{
          a16.data(), a.rows, a.cols, a.ld, layout, s.ta ? Transpose::transpose : Transpose::none};
      const MatrixView<const bf16> b16v{
          b16.data(), b.rows, b.cols, b.ld, layout, s.tb ? Transpose::transpose : Transpose::none};
      const std::int64_t extent = layout == Layout::row_major ? s.n : s.m;
      Epilogue e;
      e.add_per_column(bias.data())
          .activation(Activation::silu)
          .add_matrix(residual.data(), std::max<std::int64_t>(1, extent));
      for (int threads : {1, 2}) {
        set_num_threads(threads);
        const std::string what = describe(s, 0.5f, 0, threads) +
                                 (layout == Layout::row_major ? " row-major" : " col-major");
        Matrix<float> want(s.m, s.n, layout), want16(s.m, s.n, layout);
        gemm(0.5f, a.view(s.ta ? Transpose::transpose : Transpose::none),
             b.view(s.tb ? Transpose::transpose : Transpose::none), 0.0f, want.view(), e);
        gemm(0.5f, a16v, b16v, 0.0f, want16.view(), e);
        std::vector<bf16> got(want.storage.size() + 1, bf16{kGapBits}),
            got16(want.storage.size() + 1, bf16{kGapBits});
        gemm(0.5f, a.view(s.ta ? Transpose::transpose : Transpose::none),
             b.view(s.tb ? Transpose::transpose : Transpose::none),
             MatrixView<bf16>{got.data(), s.m, s.n, want.ld, layout}, e);
        gemm(0.5f, a16v, b16v, MatrixView<bf16>{got16.data(), s.m, s.n, want.ld, layout}, e);
        bool same = true;
        for (std::size_t i = 0; i < want.storage.size(); ++i) {
          same = same && got[i].bits == to_bf16(want.storage[i]).bits &&
                 got16[i].bits == to_bf16(want16.storage[i]).bits;
        }
        EXPECT_TRUE(same) << what;
        EXPECT_EQ(got.back().bits, kGapBits) << what;  // nothing past the last element
      }
    }
  }
  set_num_threads(saved_threads);
}

// The rounding of every ISA path's epilogue kernel against ridge::to_bf16: ties both ways,
// values that round up to the next binade or to infinity, subnormals, signed zeros, NaN (made
// quiet) and infinities; in full vectors and in a partial one.
class Bf16Rounding : public ::testing::TestWithParam<Isa> {};

TEST_P(Bf16Rounding, IsToNearestEvenOnEveryPath) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> values = {0.0f,
                               -0.0f,
                               1.0f,
                               -1.0f,
                               inf,
                               -inf,
                               std::numeric_limits<float>::max(),
                               -std::numeric_limits<float>::max(),
                               std::numeric_limits<float>::denorm_min(),
                               std::numeric_limits<float>::min(),
                               std::bit_cast<float>(0x3f808000u),  // tie, even below: down
                               std::bit_cast<float>(0x3f818000u),  // tie, odd below: up
                               std::bit_cast<float>(0x3f808001u),  // past the tie: up
                               std::bit_cast<float>(0x3fffffffu),  // up into the next binade
                               std::bit_cast<float>(0x7f7f8000u),  // tie at the top: to infinity
                               std::bit_cast<float>(0x7fc00001u),  // quiet NaN
                               std::bit_cast<float>(0x7f800001u),  // signalling NaN
                               std::bit_cast<float>(0xffffffffu)};
  std::mt19937 rng(9);
  while (values.size() < 37)
    values.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(rng())));
  std::vector<float> c = values;
  std::vector<std::uint16_t> out(values.size() + 1, kGapBits);
  kernels::Epilogue e;
  e.c = c.data();
  e.ldc = static_cast<std::int64_t>(c.size());
  e.bf16 = out.data();
  e.bf16_ld = e.ldc;
  kernels::epilogue_kernel(GetParam())(e, c.data(), e.ldc, 1);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::uint16_t want = to_bf16(values[i]).bits;
    EXPECT_EQ(out[i], want) << i << ": " << std::hex << std::bit_cast<std::uint32_t>(values[i]);
  }
  EXPECT_EQ(out.back(), kGapBits);
  EXPECT_EQ(std::memcmp(c.data(), values.data(), c.size() * sizeof(float)), 0);  // C only read
}

INSTANTIATE_TEST_SUITE_P(Isa, Bf16Rounding, ::testing::ValuesIn(kAllIsas), isa_test_name);

TEST(GemmQuantised, ReportsBadArgumentsLeavingCUntouched) {
  std::vector<std::uint8_t> a(12, 1);
  std::vector<std::int8_t> b(12, 1);
  std::vector<float> c(9, 7.0f);
  std::vector<bf16> c16(9, bf16{kGapBits});
  const auto A = row_major<const std::uint8_t>(a.data(), 3, 4);
  const auto B = row_major<const std::int8_t>(b.data(), 4, 3);
  const std::uint8_t az = 0;
  const std::int8_t bz = 0;
  EXPECT_NE(error_of([&] {
              gemm(1.0f, A, az, B, bz, col_major(c.data(), 3, 3));
            }).find("c must be row-major"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, A, az, B, bz, col_major(c16.data(), 3, 3));
            }).find("c must be row-major"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, A, az, B, bz, row_major(c.data(), 3, 3).transposed());
            }).find("c must not be transposed"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, A, az, B.transposed(), bz, row_major(c.data(), 3, 3));
            }).find("op(b) has 4 columns but c has 3"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, A, az, B, bz, row_major(c.data(), 3, 3, 2));
            }).find("c.ld (2) is below the column count (3)"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, A, az, B, bz, row_major(c16.data(), 3, 3, 2));
            }).find("c.ld (2) is below the column count (3)"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, row_major<const float>(nullptr, 3, 4),
                   row_major<const float>(nullptr, 4, 3), row_major(c16.data(), 3, 3));
            }).find("a.data is null"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, A, az, B, bz, row_major(c.data(), 3, 3),
                   Epilogue().add_per_column(nullptr));
            }).find("epilogue operation 0 has a null pointer"),
            std::string::npos);
  for (float x : c) EXPECT_EQ(x, 7.0f);
  for (bf16 x : c16) EXPECT_EQ(x.bits, kGapBits);
}

}  // namespace
}  // namespace ridge::test
