// ridge::PackedMatrix for bf16 and int8 products: bit-identical to the unpacked call (bf16 from
// bf16 and from float rounded to bf16; int8 with zero points, dequantised into a float or bf16 C
// through an epilogue, and the C API's int32 C with alpha, beta and offsets) on every path the
// driver takes for the unpacked call (one row of C against the weights, one column, several
// depth slices, block edges, K = 0), A transposed or not, leading dimensions past the extent,
// NaN and Inf, 1 and 2 threads, several threads sharing one packed B; exact int32 where int16
// pair sums would saturate; and the argument checks of the C++ and C entry points.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "ridge/ridge.h"
#include "ridge/ridge.hpp"
#include "support/block_tunings.hpp"
#include "support/invalid_argument.hpp"

namespace ridge::test {
namespace {

struct Shape {
  std::int64_t m, n, k;
  bool ta, tb;
};

// One row of C against row-major weights (the column sweep of the unpacked call) and against
// transposed ones, one column, block edges, several depth slices, an odd and a prime depth,
// K = 0 and an empty C; and activations too large for L2 beside a tile's panel of weights (the
// prepacked loops' second and third orders on a 0.5-1 MiB L2: slice by slice, and by blocks);
// a few rows of x against W's rows (x W^T, which the unpacked call's tiles may read in place)
// over one slice and several; and a few rows against row-major weights (x W, which the unpacked
// call sweeps for all rows at once, up to 8 rows).
const Shape kShapes[] = {
    {1, 1, 1, false, false},        {1, 67, 301, false, false},    {1, 3001, 300, false, false},
    {1, 40, 63, false, true},       {37, 1, 50, false, false},     {16, 16, 16, false, false},
    {33, 29, 17, true, false},      {100, 130, 701, false, false}, {257, 3, 1000, true, true},
    {40, 2048, 1024, false, false}, {5, 7, 0, false, false},       {0, 5, 5, false, false},
    {100, 40, 8001, false, false},  {600, 50, 2000, true, false},  {2000, 20, 3000, false, false},
    {3, 64, 65, false, true},       {33, 70, 3001, false, true},   {96, 100, 2050, false, true},
    {2, 67, 301, false, false},     {5, 3001, 300, true, false},   {8, 130, 701, false, false},
    {9, 40, 63, false, false},      {6, 1100, 1000, false, false},
};

// C's padding past each row: 1, and 0 for one column (rows 1 apart, as a column-major C's).
std::int64_t c_pad(const Shape& s) { return s.n == 1 ? 0 : 1; }

std::string describe(const Shape& s, int threads) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
         (s.ta ? " A^T" : "") + (s.tb ? " B^T" : "") + ", " + std::to_string(threads) + " threads";
}

template <class T>
bool same_bits(const std::vector<T>& x, const std::vector<T>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

// op(X) (rows x cols) stored row-major with ld = its row's extent + pad.
template <class T>
struct Stored {
  std::int64_t rows, cols, ld;
  bool transposed;
  std::vector<T> data;
  Stored(std::int64_t op_rows, std::int64_t op_cols, bool t, std::int64_t pad)
      : rows(t ? op_cols : op_rows),
        cols(t ? op_rows : op_cols),
        ld(std::max<std::int64_t>(1, cols) + pad),
        transposed(t),
        data(static_cast<std::size_t>(std::max<std::int64_t>(1, rows * ld))) {}
  MatrixView<const T> view() const {
    return {data.data(),
            rows,
            cols,
            ld,
            Layout::row_major,
            transposed ? Transpose::transpose : Transpose::none};
  }
};

std::vector<float> random_floats(std::size_t count, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> x(count);
  for (float& v : x) v = u(rng);
  return x;
}

// ---- bf16 ----

struct Bf16Case {
  Stored<bf16> a, b;
  std::vector<float> c;
  std::int64_t ldc;
  Bf16Case(const Shape& s, std::mt19937& rng)
      : a(s.m, s.k, s.ta, 3), b(s.k, s.n, s.tb, 2), ldc(std::max<std::int64_t>(1, s.n) + c_pad(s)) {
    for (bf16& x : a.data) x = to_bf16(random_floats(1, rng)[0]);
    for (bf16& x : b.data) x = to_bf16(random_floats(1, rng)[0]);
    c = random_floats(static_cast<std::size_t>(std::max<std::int64_t>(1, s.m * ldc)), rng);
  }
};

MatrixView<float> c_view(std::vector<float>& c, const Shape& s, std::int64_t ldc) {
  return {c.data(), s.m, s.n, ldc, Layout::row_major};
}

TEST(GemmPackedBf16, MatchesTheUnpackedCallBitForBit) {
  std::mt19937 rng(21);
  const int saved_threads = num_threads();
  for (const Shape& s : kShapes) {
    Bf16Case t(s, rng);
    const PackedMatrix packed(t.b.view());
    EXPECT_EQ(packed.element(), PackedMatrix::Element::bf16);
    EXPECT_EQ(packed.rows(), s.k);
    EXPECT_EQ(packed.cols(), s.n);
    for (const auto& [alpha, beta] : {std::pair{1.0f, 0.0f}, {0.5f, 2.0f}, {0.0f, 3.0f}}) {
      std::vector<float> expected = t.c;
      gemm(alpha, t.a.view(), t.b.view(), beta, c_view(expected, s, t.ldc));
      for (int threads : {1, 2}) {
        set_num_threads(threads);
        std::vector<float> got = t.c;
        gemm(alpha, t.a.view(), packed, beta, c_view(got, s, t.ldc));
        EXPECT_TRUE(same_bits(got, expected))
            << describe(s, threads) << " alpha " << alpha << " beta " << beta;
      }
    }
  }
  set_num_threads(saved_threads);
}

// Under a tuning of the blocks (ridge tune's a_level and b_l1_ways) the packed call takes the
// unpacked call's depth slices, which fix a float C's rounding where alpha and beta scale it.
TEST(GemmPackedBf16, MatchesTheUnpackedCallUnderTunedBlocks) {
  std::mt19937 rng(22);
  for_each_block_tuning([&](const std::string& tuning) {
    for (const Shape& s : {Shape{100, 130, 701, false, false}, Shape{96, 100, 2050, false, true},
                           Shape{600, 50, 2000, true, false}}) {
      Bf16Case t(s, rng);
      const PackedMatrix packed(t.b.view());
      std::vector<float> expected = t.c, got = t.c;
      gemm(0.5f, t.a.view(), t.b.view(), 2.0f, c_view(expected, s, t.ldc));
      gemm(0.5f, t.a.view(), packed, 2.0f, c_view(got, s, t.ldc));
      EXPECT_TRUE(same_bits(got, expected)) << describe(s, num_threads()) << ", " << tuning;
    }
  });
}

TEST(GemmPackedBf16, SpecialValuesAndEpilogueAsTheUnpackedCall) {
  std::mt19937 rng(23);
  for (const Shape& s : {Shape{1, 64, 101, false, false}, Shape{20, 40, 30, false, false},
                         Shape{70, 50, 300, false, true}}) {
    Bf16Case t(s, rng);
    t.b.data[3] = to_bf16(std::numeric_limits<float>::infinity());
    t.b.data[static_cast<std::size_t>(t.b.ld + 5)] = to_bf16(std::nanf(""));
    t.a.data[2] = to_bf16(-std::numeric_limits<float>::infinity());
    std::vector<float> bias = random_floats(static_cast<std::size_t>(s.n), rng);
    Epilogue e;
    e.add_per_column(bias.data()).activation(Activation::silu);
    const PackedMatrix packed(t.b.view());
    for (float beta : {0.0f, 1.0f}) {
      std::vector<float> expected = t.c, got = t.c;
      gemm(1.0f, t.a.view(), t.b.view(), beta, c_view(expected, s, t.ldc), e);
      gemm(1.0f, t.a.view(), packed, beta, c_view(got, s, t.ldc), e);
      EXPECT_TRUE(same_bits(got, expected)) << describe(s, 1) << " beta " << beta;
    }
  }
}

// Packed from float: the bf16 product on B rounded to nearest even, whatever B's layout.
TEST(GemmPackedBf16, FromFloatIsFromTheRoundedValues) {
  std::mt19937 rng(25);
  for (const Shape& s : {Shape{1, 67, 301, false, false}, Shape{1, 67, 301, false, true},
                         Shape{33, 29, 17, false, true}, Shape{100, 130, 300, false, false}}) {
    Bf16Case t(s, rng);
    Stored<float> b(s.k, s.n, s.tb, 5);
    b.data = random_floats(b.data.size(), rng);
    Stored<bf16> rounded(s.k, s.n, s.tb, 5);
    for (std::size_t i = 0; i < b.data.size(); ++i) rounded.data[i] = to_bf16(b.data[i]);
    std::vector<float> expected = t.c, got = t.c;
    gemm(1.0f, t.a.view(), PackedMatrix(rounded.view()), 0.0f, c_view(expected, s, t.ldc));
    gemm(1.0f, t.a.view(), PackedMatrix(b.view(), PackedMatrix::Element::bf16), 0.0f,
         c_view(got, s, t.ldc));
    EXPECT_TRUE(same_bits(got, expected)) << describe(s, 1);
  }
  std::vector<float> b(4, 1.0f);
  EXPECT_NE(error_of([&] {
              PackedMatrix(row_major<const float>(b.data(), 2, 2), PackedMatrix::Element::s8);
            }).find("not int8"),
            std::string::npos);
}

// ---- int8 ----

template <class SourceA>
struct Int8Case {
  Stored<SourceA> a;
  Stored<std::int8_t> b;
  Int8Case(const Shape& s, std::mt19937& rng) : a(s.m, s.k, s.ta, 3), b(s.k, s.n, s.tb, 2) {
    std::uniform_int_distribution<int> ai(std::is_signed_v<SourceA> ? -128 : 0,
                                          std::is_signed_v<SourceA> ? 127 : 255);
    std::uniform_int_distribution<int> bi(-128, 127);
    for (SourceA& x : a.data) x = static_cast<SourceA>(ai(rng));
    for (std::int8_t& x : b.data) x = static_cast<std::int8_t>(bi(rng));
  }
};

// Dequantised into a float C (a per-column scale, a bias, GELU) and a bf16 C; zero points zero
// and not.
template <class SourceA>
void int8_matches_the_unpacked_call() {
  std::mt19937 rng(27);
  const int saved_threads = num_threads();
  for (const Shape& s : kShapes) {
    Int8Case<SourceA> t(s, rng);
    std::vector<float> scale = random_floats(static_cast<std::size_t>(s.n + 1), rng);
    std::vector<float> bias = random_floats(static_cast<std::size_t>(s.n + 1), rng);
    Epilogue e;
    e.scale_per_column(scale.data()).add_per_column(bias.data()).activation(Activation::gelu_tanh);
    const std::int64_t ldc = std::max<std::int64_t>(1, s.n) + c_pad(s);
    const std::size_t c_size = static_cast<std::size_t>(std::max<std::int64_t>(1, s.m * ldc));
    for (const auto& [a_zero, b_zero] :
         {std::pair{0, 0}, {3, -5}, {std::is_signed_v<SourceA> ? -128 : 255, 127}}) {
      const PackedMatrix packed(t.b.view(), static_cast<std::int8_t>(b_zero));
      EXPECT_EQ(packed.element(), PackedMatrix::Element::s8);
      const auto za = static_cast<SourceA>(a_zero);
      const auto zb = static_cast<std::int8_t>(b_zero);
      std::vector<float> expected(c_size, 7.0f);
      gemm(0.25f, t.a.view(), za, t.b.view(), zb, c_view(expected, s, ldc), e);
      std::vector<bf16> expected_bf16(c_size, bf16{0x7fa5});
      const MatrixView<bf16> bf16_c{nullptr, s.m, s.n, ldc, Layout::row_major};
      MatrixView<bf16> want = bf16_c;
      want.data = expected_bf16.data();
      gemm(0.25f, t.a.view(), za, t.b.view(), zb, want);
      for (int threads : {1, 2}) {
        set_num_threads(threads);
        std::vector<float> got(c_size, 7.0f);
        gemm(0.25f, t.a.view(), za, packed, c_view(got, s, ldc), e);
        EXPECT_TRUE(same_bits(got, expected))
            << describe(s, threads) << " zero points " << a_zero << ", " << b_zero;
        std::vector<bf16> got_bf16(c_size, bf16{0x7fa5});
        MatrixView<bf16> into = bf16_c;
        into.data = got_bf16.data();
        gemm(0.25f, t.a.view(), za, packed, into);
        EXPECT_EQ(std::memcmp(got_bf16.data(), expected_bf16.data(), c_size * sizeof(bf16)), 0)
            << describe(s, threads) << " bf16 C, zero points " << a_zero << ", " << b_zero;
      }
    }
  }
  set_num_threads(saved_threads);
}

TEST(GemmPackedInt8, U8S8MatchesTheUnpackedCallBitForBit) {
  int8_matches_the_unpacked_call<std::uint8_t>();
}
TEST(GemmPackedInt8, S8S8MatchesTheUnpackedCallBitForBit) {
  int8_matches_the_unpacked_call<std::int8_t>();
}

// The C API's int32 C: equal to ridge_gemm_u8s8s32 on the B it was packed from, with alpha,
// beta and each kind of offset; and exact where every int16 pair sum would saturate (all 255
// against all -128 with zero points, K deep enough to overflow int16 many times over), against
// 64-bit integers.
TEST(GemmPackedInt8, CApiIsTheUnpackedCApi) {
  std::mt19937 rng(29);
  for (const Shape& s : {Shape{1, 300, 257, false, false}, Shape{37, 1, 50, true, false},
                         Shape{100, 130, 701, false, true}}) {
    Int8Case<std::uint8_t> t(s, rng);
    std::vector<std::int32_t> co(static_cast<std::size_t>(std::max(s.m, s.n)));
    for (std::size_t i = 0; i < co.size(); ++i) co[i] = static_cast<std::int32_t>(i * 7) - 100;
    ridge_packed_matrix* packed = nullptr;
    ASSERT_EQ(
        ridge_gemm_s8_pack_b(s.tb ? 'T' : 'N', s.k, s.n, t.b.data.data(), t.b.ld, -3, &packed), 0);
    for (char offset : {'F', 'C', 'R'})
      for (const auto& [alpha, beta] : {std::pair{1.0f, 0.0f}, {1.0f, 1.0f}, {0.5f, -2.0f}}) {
        std::vector<std::int32_t> expected(static_cast<std::size_t>(s.m * (s.n + 2)), 11);
        std::vector<std::int32_t> got = expected;
        ASSERT_EQ(ridge_gemm_u8s8s32(s.ta ? 'T' : 'N', s.tb ? 'T' : 'N', offset, s.m, s.n, s.k,
                                     alpha, t.a.data.data(), t.a.ld, 4, t.b.data.data(), t.b.ld, -3,
                                     beta, expected.data(), s.n + 2, co.data()),
                  0);
        ASSERT_EQ(ridge_gemm_u8s8s32_packed(s.ta ? 'T' : 'N', offset, s.m, s.n, s.k, alpha,
                                            t.a.data.data(), t.a.ld, 4, packed, beta, got.data(),
                                            s.n + 2, co.data()),
                  0);
        EXPECT_EQ(got, expected) << describe(s, 1) << " offset " << offset;
      }
    ridge_packed_matrix_destroy(packed);
  }

  const std::int64_t m = 3, n = 70, k = 5000;
  std::vector<std::uint8_t> a(static_cast<std::size_t>(m * k), 255);
  std::vector<std::int8_t> sa(static_cast<std::size_t>(m * k), -128);
  std::vector<std::int8_t> b(static_cast<std::size_t>(k * n), -128);
  ridge_packed_matrix* packed = nullptr;
  ASSERT_EQ(ridge_gemm_s8_pack_b('N', k, n, b.data(), n, 127, &packed), 0);
  const std::int32_t zero = 0;
  std::vector<std::int32_t> c(static_cast<std::size_t>(m * n));
  ASSERT_EQ(ridge_gemm_u8s8s32_packed('N', 'F', m, n, k, 1.0f, a.data(), k, 1, packed, 0.0f,
                                      c.data(), n, &zero),
            0);
  for (std::int32_t x : c) EXPECT_EQ(x, std::int64_t{k} * (255 - 1) * (-128 - 127));
  ASSERT_EQ(ridge_gemm_s8s8s32_packed('N', 'F', m, n, k, 1.0f, sa.data(), k, 127, packed, 0.0f,
                                      c.data(), n, &zero),
            0);
  for (std::int32_t x : c) EXPECT_EQ(x, std::int64_t{k} * (-128 - 127) * (-128 - 127));
  ridge_packed_matrix_destroy(packed);
}

// Products only read a packed B: threads share one.
TEST(GemmPackedInt8, SharedByThreads) {
  std::mt19937 rng(31);
  const Shape s{48, 200, 300, false, false};
  Int8Case<std::uint8_t> t(s, rng);
  const PackedMatrix packed(t.b.view(), 9);
  std::vector<float> expected(static_cast<std::size_t>(s.m * s.n));
  gemm(1.0f, t.a.view(), std::uint8_t{2}, t.b.view(), std::int8_t{9}, c_view(expected, s, s.n));
  std::vector<std::vector<float>> results(4, std::vector<float>(expected.size()));
  std::vector<std::thread> threads;
  for (std::vector<float>& c : results)
    threads.emplace_back([&] {
      for (int round = 0; round < 5; ++round)
        gemm(1.0f, t.a.view(), std::uint8_t{2}, packed, c_view(c, s, s.n));
    });
  for (std::thread& thread : threads) thread.join();
  for (const std::vector<float>& c : results) EXPECT_TRUE(same_bits(c, expected));
}

// ---- argument checks ----

TEST(GemmPackedNarrow, RejectsProductsOfAnotherElementType) {
  std::vector<float> af(12, 1.0f), bf(12, 1.0f), c(9, 7.0f);
  std::vector<bf16> ab(12, to_bf16(1.0f)), bb(12, to_bf16(1.0f));
  std::vector<std::uint8_t> a8(12, 1);
  std::vector<std::int8_t> b8(12, 1);
  const PackedMatrix f32(row_major<const float>(bf.data(), 4, 3));
  const PackedMatrix b16(row_major<const bf16>(bb.data(), 4, 3));
  const PackedMatrix s8(row_major<const std::int8_t>(b8.data(), 4, 3), 0);
  const auto C = row_major(c.data(), 3, 3);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, row_major<const float>(af.data(), 3, 4), b16, 0.0f, C);
            }).find("b was packed for bf16 products, a is f32"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, row_major<const bf16>(ab.data(), 3, 4), s8, 0.0f, C);
            }).find("b was packed for int8 products, a is bf16"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, row_major<const std::uint8_t>(a8.data(), 3, 4), std::uint8_t{0}, f32, C);
            }).find("b was packed for f32 products, a is int8"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, row_major<const bf16>(ab.data(), 3, 3), b16, 0.0f, C);
            }).find("op(a) has 3 columns but b has 4 rows"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, row_major<const std::uint8_t>(a8.data(), 3, 4), std::uint8_t{0}, s8,
                   col_major(c.data(), 3, 3));
            }).find("c must be row-major"),
            std::string::npos);
  for (float x : c) EXPECT_EQ(x, 7.0f);
}

TEST(GemmPackedNarrow, CApiRejectsBadArgumentsLeavingCUntouched) {
  std::vector<std::uint16_t> a16(12, 0x3f80), b16(12, 0x3f80);
  std::vector<std::uint8_t> a8(12, 1);
  std::vector<std::int8_t> b8(12, 1);
  std::vector<float> cf(9, 7.0f);
  std::vector<std::int32_t> ci(9, 7);
  const std::int32_t zero = 0;
  ridge_packed_matrix *bf = nullptr, *s8 = nullptr;
  EXPECT_EQ(ridge_sbgemm_pack_b(static_cast<CBLAS_TRANSPOSE>(0), 4, 3, b16.data(), 3, &bf),
            RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(ridge_sbgemm_pack_b(CblasNoTrans, 4, 3, b16.data(), 2, &bf), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(ridge_sbgemm_pack_b(CblasNoTrans, 4, 3, nullptr, 3, &bf), RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(ridge_gemm_s8_pack_b('X', 4, 3, b8.data(), 3, 0, &s8), RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(ridge_gemm_s8_pack_b('N', -1, 3, b8.data(), 3, 0, &s8), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(ridge_gemm_s8_pack_b('T', 4, 3, b8.data(), 3, 0, &s8), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(ridge_gemm_s8_pack_b('N', 4, 3, b8.data(), 3, 0, nullptr), RIDGE_ERROR_NULL_POINTER);
  ASSERT_EQ(ridge_sbgemm_pack_b(CblasNoTrans, 4, 3, b16.data(), 3, &bf), 0);
  ASSERT_EQ(ridge_gemm_s8_pack_b('N', 4, 3, b8.data(), 3, 0, &s8), 0);
  EXPECT_EQ(ridge_sbgemm_packed(CblasNoTrans, 3, 3, 4, 1.0f, a16.data(), 4, s8, 0.0f, cf.data(), 3),
            RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(ridge_sbgemm_packed(CblasNoTrans, 3, 3, 5, 1.0f, a16.data(), 5, bf, 0.0f, cf.data(), 3),
            RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(
      ridge_sbgemm_packed(CblasNoTrans, 3, 3, 4, 1.0f, a16.data(), 4, nullptr, 0.0f, cf.data(), 3),
      RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(ridge_gemm_u8s8s32_packed('N', 'F', 3, 3, 4, 1.0f, a8.data(), 4, 0, bf, 0.0f, ci.data(),
                                      3, &zero),
            RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(ridge_gemm_u8s8s32_packed('N', 'Q', 3, 3, 4, 1.0f, a8.data(), 4, 0, s8, 0.0f, ci.data(),
                                      3, &zero),
            RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(ridge_gemm_u8s8s32_packed('N', 'F', 3, 3, 4, std::nanf(""), a8.data(), 4, 0, s8, 0.0f,
                                      ci.data(), 3, &zero),
            RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(ridge_gemm_u8s8s32_packed('N', 'F', 3, 2, 4, 1.0f, a8.data(), 4, 0, s8, 0.0f, ci.data(),
                                      3, &zero),
            RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(ridge_gemm_u8s8s32_packed('N', 'F', 3, 3, 4, 1.0f, a8.data(), 3, 0, s8, 0.0f, ci.data(),
                                      3, &zero),
            RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(ridge_gemm_u8s8s32_packed('N', 'F', 3, 3, 4, 1.0f, nullptr, 4, 0, s8, 0.0f, ci.data(),
                                      3, &zero),
            RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(ridge_gemm_u8s8s32_packed('N', 'F', 3, 3, 4, 1.0f, a8.data(), 4, 0, s8, 0.0f, ci.data(),
                                      3, nullptr),
            RIDGE_ERROR_NULL_POINTER);
  for (float x : cf) EXPECT_EQ(x, 7.0f);
  for (std::int32_t x : ci) EXPECT_EQ(x, 7);
  ridge_packed_matrix_destroy(bf);
  ridge_packed_matrix_destroy(s8);
}

}  // namespace
}  // namespace ridge::test
