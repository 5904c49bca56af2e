// The int8 GEMM (ridge_gemm_u8s8s32, ridge_gemm_s8s8s32) against 64-bit integer arithmetic:
// the packed loops, the one-column and row-dot kernels of every ISA path across every block
// boundary with zero points and odd depths; the C API over every transposition, offset kind,
// padded leading dimensions, the extreme operands (all 255 against all -128, which VPMADDUBSW's
// int16 pair sums cannot hold), depths past any int16 sum, alpha and beta with their rounding and
// saturation; thread counts; and each bad argument, with C untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gemm/dispatch.hpp"
#include "gemm/loops.hpp"
#include "kernels/sweep_parts.hpp"
#include "ridge/machine.hpp"
#include "ridge/ridge.h"
#include "runtime/amx.hpp"
#include "runtime/settings.hpp"
#include "simd/generic.hpp"
#include "simd/generic_int16_pairs.hpp"
#include "support/block_tunings.hpp"
#include "support/isa_paths.hpp"

namespace ridge::test {
namespace {

// Uniform 8-bit values of type S, or one value everywhere (fill).
template <class S>
std::vector<S> random_bytes(std::size_t count, std::mt19937& rng) {
  std::vector<S> v(std::max<std::size_t>(1, count));
  std::uniform_int_distribution<int> d(std::is_signed_v<S> ? -128 : 0,
                                       std::is_signed_v<S> ? 127 : 255);
  for (S& x : v) x = static_cast<S>(d(rng));
  return v;
}

template <class SourceB>
using Int8Kernels = gemm_detail::GemmKernels<std::int32_t, std::int8_t, SourceB>;

// The packed path of a kernel set on the internal problem (column-major C, A int8, B SourceB),
// with blocks small enough that modest shapes cross MC, KC (in pairs or quads of depths) and NC
// and their remainders, against sum((A - a_zero)(B - b_zero)) in 64-bit integers.
template <class SourceB>
void sweep_packed(const Int8Kernels<SourceB>& kernels) {
  ASSERT_EQ(kernels.direct, nullptr);
  const int group = kernels.depth_group;
  const int mr = kernels.mr, nr = kernels.nr;
  const gemm_detail::BlockSizes small{2 * mr, 4, 3 * nr, 0};
  const std::set<int> ms = {1, mr - 1, mr, mr + 1, 2 * mr + 3, 5 * mr + 3};
  const std::set<int> ns = {1, nr - 1, nr + 1, 3 * nr + 2, 7 * nr + 5};
  std::mt19937 rng(7);
  int index = 0;
  for (int m : ms)
    for (int n : ns)
      for (int k : {1, 2, 7, 8, 9, 17, 35, 131})
        for (bool a_rows : {false, true})      // A column- or row-contiguous
          for (bool b_rows : {false, true}) {  // B likewise
            ++index;
            // A column-contiguous B's columns alternately 4-byte aligned (whose quads the
            // packing moves as 32-bit words) and not.
            const std::int64_t b_pad = b_rows ? 2 : (k + 3) / 4 * 4 - k + 4 * (index % 2);
            const std::int64_t lda = (a_rows ? k : m) + 3, ldb = (b_rows ? n : k) + b_pad,
                               ldc = m + 1;
            const auto a = random_bytes<std::int8_t>((a_rows ? m : k) * lda, rng);
            const auto b = random_bytes<SourceB>((b_rows ? k : n) * ldb, rng);
            std::vector<std::int32_t> c(n * ldc, 12345);
            kernels::GemmProblem<std::int32_t, std::int8_t, SourceB> p;
            p.m = m, p.n = n, p.k = k;
            p.a = a.data(), p.a_rs = a_rows ? lda : 1, p.a_cs = a_rows ? 1 : lda;
            p.b = b.data(), p.b_rs = b_rows ? ldb : 1, p.b_cs = b_rows ? 1 : ldb;
            p.a_zero = index % 3 == 0 ? 0 : -128 + index % 256;
            p.b_zero = index % 2 == 0 ? 0 : index % 256 - (std::is_signed_v<SourceB> ? 128 : 0);
            p.c = c.data(), p.ldc = ldc;
            const std::int64_t steps = kernels.steps(k);
            std::vector<std::byte> work(
                gemm_detail::packed_workspace<std::int32_t>(m, n, steps, small, mr, nr, false,
                                                            group == 4, kernels.step_multiple)
                    .bytes());
            kernels.packed(p, small, {false, 2 * (index % 7)}, work.data());
            for (std::int64_t j = 0; j < n; ++j) {
              for (std::int64_t i = 0; i < m; ++i) {
                std::int64_t want = 0;
                for (std::int64_t q = 0; q < k; ++q)
                  want += (std::int64_t{a[i * p.a_rs + q * p.a_cs]} - p.a_zero) *
                          (std::int64_t{b[q * p.b_rs + j * p.b_cs]} - p.b_zero);
                ASSERT_EQ(c[i + j * ldc], want)
                    << m << "x" << n << "x" << k << " (" << i << ", " << j << "), A "
                    << (a_rows ? "row" : "column") << "-contiguous, B "
                    << (b_rows ? "row" : "column") << "-contiguous, zeros " << p.a_zero << ", "
                    << p.b_zero;
              }
              ASSERT_EQ(c[m + j * ldc], 12345) << "padding below column " << j;
            }
          }
}

// C (m x n, columns ldc apart, 12345 below each) against sum_q (A_iq - a_zero)(X_qj - x_zero)
// in 64-bit integers, wrapped to int32 as the kernels' sums are: A's element (i, q) at i * a_rs +
// q * a_cs, X's columns ldx apart.
template <class SourceB>
void expect_products(std::int64_t m, std::int64_t n, std::int64_t k,
                     const std::vector<std::int8_t>& a, std::int64_t a_rs, std::int64_t a_cs,
                     std::int32_t a_zero, const std::vector<SourceB>& x, std::int64_t ldx,
                     std::int32_t x_zero, const std::vector<std::int32_t>& c, std::int64_t ldc) {
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < m; ++i) {
      std::int64_t want = 0;
      for (std::int64_t q = 0; q < k; ++q)
        want += (std::int64_t{a[i * a_rs + q * a_cs]} - a_zero) *
                (std::int64_t{x[q + j * ldx]} - x_zero);
      ASSERT_EQ(c[i + j * ldc], static_cast<std::int32_t>(static_cast<std::uint32_t>(want)))
          << m << "x" << n << "x" << k << " (" << i << ", " << j << "), zeros " << a_zero << ", "
          << x_zero;
    }
    ASSERT_EQ(c[m + j * ldc], 12345) << "padding below column " << j;
  }
}

// The kernels' zero points for the index-th case: zero or not, each on its own cycle.
std::pair<std::int32_t, std::int32_t> zero_points(int index) {
  return {index % 2 ? 0 : -128 + 37 * index % 256, index % 3 ? 0 : 11 * index % 128};
}

// The column sweep (a few rows of x W, up to kMaxInt8SweepColumns): rows around its steps and row
// blocks, odd depths, one column and several (X's and C's columns apart by more than their
// extent), exact against 64-bit sums; C's padding untouched.
template <class SourceB>
void sweep_columns(const Int8Kernels<SourceB>& kernels) {
  const std::int64_t step = kernels.column_sweep_rows, row_block = 2 * step;
  std::mt19937 rng(8);
  int index = 0;
  for (std::int64_t m : {std::int64_t{1}, step - 1, step, step + 1, 2 * row_block + step + 3})
    for (std::int64_t k : {1, 2, 7, 8, 9, 33})
      for (std::int64_t n : {std::int64_t{1}, std::int64_t{2}, std::int64_t{3},
                             std::int64_t{kernels::kMaxInt8SweepColumns}}) {
        ++index;
        const std::int64_t lda = m + index % 3, ldx = k + index % 2, ldc = m + 1;
        const auto a = random_bytes<std::int8_t>(k * lda, rng);
        const auto x = random_bytes<SourceB>(n * ldx, rng);
        const auto [a_zero, x_zero] = zero_points(index);
        std::vector<std::int32_t> c(n * ldc, 12345);
        kernels.column_sweep(m, k, a.data(), lda, a_zero, x.data(), ldx, x_zero, c.data(), ldc, n,
                             row_block);
        expect_products(m, n, k, a, 1, lda, a_zero, x, ldx, x_zero, c, ldc);
      }
}

// The row-dot kernel (a few rows of x W^T): rows around its steps, columns around its groups,
// depths around its steps (64 bytes on AVX-512's quads, 16 on the portable ones; 32 / 16 / 8 on
// AVX-512's, AVX2's and the portable int16 pairs), rows lda apart past the depth, C's columns ldc
// apart past its rows.
template <class SourceB>
void sweep_row_dot(const Int8Kernels<SourceB>& kernels) {
  ASSERT_NE(kernels.row_dot, nullptr);
  std::mt19937 rng(9);
  int index = 0;
  for (std::int64_t m : {1, 3, 4, 5, 9, 33})
    for (std::int64_t n : {1, 3, 4, 6, 9})
      for (std::int64_t k : {1, 3, 4, 15, 16, 17, 63, 64, 65, 130}) {
        ++index;
        const std::int64_t lda = k + index % 5, ldx = k + index % 3, ldc = m + 1;
        const auto a = random_bytes<std::int8_t>(m * lda, rng);
        const auto x = random_bytes<SourceB>(n * ldx, rng);
        const auto [a_zero, x_zero] = zero_points(index);
        std::vector<std::uint8_t> work(kernels.row_dot_bytes(k, n));
        std::vector<std::int32_t> c(n * ldc, 12345);
        kernels.row_dot(m, n, k, a.data(), lda, a_zero, x.data(), ldx, x_zero, c.data(), ldc,
                        work.data());
        expect_products(m, n, k, a, lda, 1, a_zero, x, ldx, x_zero, c, ldc);
      }
}

class GemmInt8Loops : public ::testing::TestWithParam<Isa> {};

// Whether the ISA path's int8 GEMM takes quads: AVX-512 with AVX512_VNNI, AVX2 with AVX-VNNI.
bool takes_quads(Isa isa) {
  const IsaFeatures& f = Machine::current().isa;
  return (isa == Isa::avx512 && f.avx512_vnni) ||
         (isa == Isa::avx2 && f.avx_vnni && runtime::avx_vnni_allowed());
}

// The kernels each ISA path dispatches to: int16 pairs, or int8 quads (takes_quads).
template <class SourceB>
void sweep_packed(Isa isa) {
  const Int8Kernels<SourceB>& kernels =
      gemm_detail::gemm_kernels<std::int32_t, std::int8_t, SourceB>(isa).kernels;
  ASSERT_EQ(kernels.depth_group, takes_quads(isa) ? 4 : 2);
  sweep_packed(kernels);
}

TEST_P(GemmInt8Loops, PackedPathIsExactAcrossEveryBlockBoundary) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  sweep_packed<std::uint8_t>(GetParam());
  sweep_packed<std::int8_t>(GetParam());
}

#if defined(__x86_64__)
// The AMX tiles' packed path by name, whichever the dispatch picks here.
TEST(GemmInt8, AmxKernelsAreExactAcrossEveryBlockBoundary) {
  if (!Machine::current().isa.amx_int8 || !runtime::amx_usable())
    GTEST_SKIP() << "AMX-INT8 is not usable here";
  const auto u8 = avx512_amx::gemm_kernels(std::int32_t{}, std::int8_t{}, std::uint8_t{});
  const auto s8 = avx512_amx::gemm_kernels(std::int32_t{}, std::int8_t{}, std::int8_t{});
  ASSERT_EQ(u8.step_multiple, 16);
  sweep_packed(u8);
  sweep_packed(s8);
}

// The tiles on A's rows in place (x W^T, W's rows contiguous: GemmKernels::rows_in_place), x's
// values as they are (TDPBSUD, TDPBSSD), against the 64-bit reference: across a tile's rows and
// columns and the depth's tile steps, each zero point zero or not (A's row sums taken beside the
// first panel's tiles), the extreme operands, A's rows past the depth holding other bytes.
template <class SourceB>
void sweep_rows_in_place(const Int8Kernels<SourceB>& kernels) {
  ASSERT_NE(kernels.rows_in_place, nullptr);
  std::mt19937 rng(10);
  int index = 0;
  for (std::int64_t m : {1, 31, 32, 33, 70})
    for (std::int64_t n : {1, 16, 17, 33, 65})
      for (std::int64_t k : {1, 63, 64, 65, 191}) {
        ++index;
        const std::int64_t lda = k + index % 5, ldx = k + index % 3, ldc = m + 1;
        auto a = random_bytes<std::int8_t>(m * lda, rng);
        auto x = random_bytes<SourceB>(n * ldx, rng);
        if (index % 7 == 0) {  // the largest products, all of one sign
          std::fill(a.begin(), a.end(), std::int8_t{-128});
          std::fill(x.begin(), x.end(), std::is_signed_v<SourceB> ? -128 : 255);
        }
        const std::int32_t a_zero = index % 2 ? 0 : -128 + 37 * index % 256,
                           x_zero = index % 4 < 2 ? 0 : 11 * index % 128;
        std::vector<std::int32_t> c(n * ldc, 12345);
        kernels::GemmProblem<std::int32_t, std::int8_t, SourceB> p;
        p.m = m, p.n = n, p.k = k, p.alpha = 1, p.beta = 0;
        p.a = a.data(), p.a_rs = lda, p.a_cs = 1;
        p.b = x.data(), p.b_rs = 1, p.b_cs = ldx;
        p.c = c.data(), p.ldc = ldc;
        p.a_zero = a_zero;
        p.b_zero = x_zero;
        std::vector<std::byte> work(kernels.rows_in_place_bytes(m, n, k) + 64);
        const auto aligned = reinterpret_cast<std::byte*>(
            (reinterpret_cast<std::uintptr_t>(work.data()) + 63) / 64 * 64);
        kernels.rows_in_place(p, kernels.steps(k), aligned);
        expect_products(m, n, k, a, lda, 1, a_zero, x, ldx, x_zero, c, ldc);
      }
}

TEST(GemmInt8, AmxTilesOnRowsInPlaceAreExact) {
  if (!Machine::current().isa.amx_int8 || !runtime::amx_usable())
    GTEST_SKIP() << "AMX-INT8 is not usable here";
  sweep_rows_in_place(avx512_amx::gemm_kernels(std::int32_t{}, std::int8_t{}, std::uint8_t{}));
  sweep_rows_in_place(avx512_amx::gemm_kernels(std::int32_t{}, std::int8_t{}, std::int8_t{}));
}
#endif

// The loops on int8 quads (packing, zero-point correction) on any CPU: on portable traits that
// do what VPDPBUSD does (simd/avx512_int8_quads.hpp), four lanes of 32 bits.
struct PortableInt8Quads : simd::GenericInt32 {
  using Out = simd::GenericInt32;
  using Float = simd::Generic<float>;
  static constexpr int depth_group = 4;
  // The byte t of a lane, as unsigned or signed.
  static std::int32_t unsigned_byte(std::int32_t lane, int t) {
    return static_cast<std::uint8_t>(static_cast<std::uint32_t>(lane) >> (8 * t));
  }
  static std::int32_t signed_byte(std::int32_t lane, int t) {
    return static_cast<std::int8_t>(static_cast<std::uint32_t>(lane) >> (8 * t));
  }
  // c + the four products of b's unsigned bytes by a's signed ones, modulo 2^32.
  static reg fma(reg a, reg b, reg c) {
    for (int i = 0; i < width; ++i) {
      std::int32_t sum = 0;
      for (int t = 0; t < 4; ++t) sum += unsigned_byte(b.v[i], t) * signed_byte(a.v[i], t);
      c.v[i] = wrap(unsigned_of(c.v[i]) + unsigned_of(sum));
    }
    return c;
  }
  static reg add_signed_quads(reg acc, reg quads) {
    for (int i = 0; i < width; ++i) {
      std::int32_t sum = 0;
      for (int t = 0; t < 4; ++t) sum += signed_byte(quads.v[i], t);
      acc.v[i] = wrap(unsigned_of(acc.v[i]) + unsigned_of(sum));
    }
    return acc;
  }
  static reg load_quads(const void* p) { return load_quads_partial(p, 4 * width); }
  static reg load_quads_partial(const void* p, int bytes) {
    reg r{};
    std::memcpy(r.v, p, static_cast<std::size_t>(bytes));
    return r;
  }
  static void store_quad_rows(const std::int8_t* column, std::int64_t cs, std::int32_t* dst) {
    for (int i = 0; i < 16; ++i) {
      std::uint32_t slot = 0;
      for (int t = 0; t < 4; ++t)
        slot |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(column[i + t * cs]))
                << (8 * t);
      dst[i] = static_cast<std::int32_t>(slot);
    }
  }
};
// Four vectors of rows (16, as the quads' packing takes them at once) by 6 columns.
constexpr kernels::TileShape kPortableQuadTiles{4, 6, 3, 4};

TEST(GemmInt8, QuadLoopsAreExactOnPortableTraits) {
  const auto u8 = gemm_detail::make_gemm_kernels<PortableInt8Quads, kPortableQuadTiles, std::int8_t,
                                                 std::uint8_t>();
  const auto s8 = gemm_detail::make_gemm_kernels<PortableInt8Quads, kPortableQuadTiles, std::int8_t,
                                                 std::int8_t>();
  sweep_packed(u8);
  sweep_packed(s8);
  sweep_row_dot(u8);
  sweep_row_dot(s8);
}

// The row-dot kernels of each path (int16 pairs, or int8 quads on AVX512_VNNI).
TEST_P(GemmInt8Loops, RowDotIsExact) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  const auto& u8 = gemm_detail::gemm_kernels<std::int32_t, std::int8_t, std::uint8_t>(GetParam());
  const auto& s8 = gemm_detail::gemm_kernels<std::int32_t, std::int8_t, std::int8_t>(GetParam());
  sweep_row_dot(u8.kernels);
  sweep_row_dot(s8.kernels);
}

TEST_P(GemmInt8Loops, ColumnSweepIsExactAcrossRowBlocks) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  sweep_columns(
      gemm_detail::gemm_kernels<std::int32_t, std::int8_t, std::uint8_t>(GetParam()).kernels);
  sweep_columns(
      gemm_detail::gemm_kernels<std::int32_t, std::int8_t, std::int8_t>(GetParam()).kernels);
}

#if defined(__x86_64__)
// Every path of a kernel set: the packed path, the column sweep, the row dot.
template <class U8, class S8>
void sweep_all(const U8& u8, const S8& s8) {
  sweep_packed(u8);
  sweep_packed(s8);
  sweep_columns(u8);
  sweep_columns(s8);
  sweep_row_dot(u8);
  sweep_row_dot(s8);
}

// AVX-512's int16 pairs by name (the packed path and row dot of AVX-512 CPUs without
// AVX512_VNNI, and the one-column product of all), whichever the dispatch picks here.
TEST(GemmInt8, Avx512PairKernelsAreExact) {
  RIDGE_SKIP_UNLESS_SUPPORTED(Isa::avx512);
  const Int8Kernels<std::uint8_t> u8 =
      avx512::gemm_kernels(std::int32_t{}, std::int8_t{}, std::uint8_t{});
  ASSERT_EQ(u8.depth_group, 2);
  sweep_all(u8, avx512::gemm_kernels(std::int32_t{}, std::int8_t{}, std::int8_t{}));
}

// AVX2's int16 pairs by name (CPUs with AVX2 and no AVX-VNNI), whichever the dispatch picks.
TEST(GemmInt8, Avx2PairKernelsAreExact) {
  RIDGE_SKIP_UNLESS_SUPPORTED(Isa::avx2);
  const Int8Kernels<std::uint8_t> u8 =
      avx2::gemm_kernels(std::int32_t{}, std::int8_t{}, std::uint8_t{});
  ASSERT_EQ(u8.depth_group, 2);
  sweep_all(u8, avx2::gemm_kernels(std::int32_t{}, std::int8_t{}, std::int8_t{}));
}

// AVX-VNNI's quads by name (the packed path and row dot; the one column is AVX2's pairs'),
// whatever RIDGE_AVX_VNNI says.
TEST(GemmInt8, AvxVnniKernelsAreExact) {
  if (!isa_supported(Isa::avx2) || !Machine::current().isa.avx_vnni)
    GTEST_SKIP() << "this CPU lacks AVX-VNNI";
  const Int8Kernels<std::uint8_t> u8 =
      avx2_vnni::gemm_kernels(std::int32_t{}, std::int8_t{}, std::uint8_t{});
  const Int8Kernels<std::int8_t> s8 =
      avx2_vnni::gemm_kernels(std::int32_t{}, std::int8_t{}, std::int8_t{});
  ASSERT_EQ(u8.depth_group, 4);
  sweep_packed(u8);
  sweep_packed(s8);
  sweep_row_dot(u8);
  sweep_row_dot(s8);
}
#endif

INSTANTIATE_TEST_SUITE_P(Isa, GemmInt8Loops, ::testing::ValuesIn(kAllIsas), isa_test_name);

// One call of the C API on random (or constant) operands, checked against the reference.
template <class SourceA>
struct Case {
  std::int64_t m = 1, n = 1, k = 1;
  bool trans_a = false, trans_b = false;
  char offset = 'F';
  float alpha = 1, beta = 0;
  SourceA ao = 0;
  std::int8_t bo = 0;
  int pad = 0;  // leading dimensions past the extent
};

template <class SourceA>
int call(char ta, char tb, char oc, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
         const SourceA* a, std::int64_t lda, SourceA ao, const std::int8_t* b, std::int64_t ldb,
         std::int8_t bo, float beta, std::int32_t* c, std::int64_t ldc, const std::int32_t* co) {
  if constexpr (std::is_same_v<SourceA, std::uint8_t>) {
    return ridge_gemm_u8s8s32(ta, tb, oc, m, n, k, alpha, a, lda, ao, b, ldb, bo, beta, c, ldc, co);
  } else {
    return ridge_gemm_s8s8s32(ta, tb, oc, m, n, k, alpha, a, lda, ao, b, ldb, bo, beta, c, ldc, co);
  }
}

// oneDNN's reference semantics: the exact sum, then alpha sum + beta C + offset in double,
// saturated to int32 and rounded to nearest even.
std::int32_t finish(std::int64_t sum, float alpha, float beta, std::int32_t c, std::int32_t co) {
  const double v =
      double{alpha} * static_cast<double>(sum) + (beta == 0 ? 0.0 : double{beta} * c) + co;
  return static_cast<std::int32_t>(std::nearbyint(std::clamp(v, -2147483648.0, 2147483647.0)));
}

template <class SourceA>
void check(const Case<SourceA>& x, const std::vector<SourceA>& a, const std::vector<std::int8_t>& b,
           std::mt19937& rng) {
  const std::int64_t lda = std::max<std::int64_t>(1, x.trans_a ? x.m : x.k) + x.pad,
                     ldb = std::max<std::int64_t>(1, x.trans_b ? x.k : x.n) + x.pad,
                     ldc = std::max<std::int64_t>(1, x.n) + x.pad;
  std::vector<std::int32_t> c(std::max<std::int64_t>(1, x.m * ldc));
  std::uniform_int_distribution<int> small(-1000, 1000);
  for (std::int32_t& v : c) v = small(rng);
  const std::vector<std::int32_t> before = c;
  std::vector<std::int32_t> co(std::max<std::int64_t>({1, x.m, x.n}));
  for (std::int32_t& v : co) v = small(rng);
  ASSERT_EQ(
      call<SourceA>(x.trans_a ? 'T' : 'n', x.trans_b ? 't' : 'N', x.offset, x.m, x.n, x.k, x.alpha,
                    a.data(), lda, x.ao, b.data(), ldb, x.bo, x.beta, c.data(), ldc, co.data()),
      0);
  for (std::int64_t i = 0; i < x.m; ++i) {
    for (std::int64_t j = 0; j < x.n; ++j) {
      std::int64_t sum = 0;
      for (std::int64_t p = 0; p < x.k; ++p)
        sum += (std::int64_t{x.trans_a ? a[p * lda + i] : a[i * lda + p]} - x.ao) *
               (std::int64_t{x.trans_b ? b[j * ldb + p] : b[p * ldb + j]} - x.bo);
      const std::int32_t o = co[x.offset == 'R' ? j : x.offset == 'C' ? i : 0];
      ASSERT_EQ(c[i * ldc + j], finish(sum, x.alpha, x.beta, before[i * ldc + j], o))
          << x.m << "x" << x.n << "x" << x.k << " (" << i << ", " << j << "), trans " << x.trans_a
          << x.trans_b << ", offset " << x.offset << ", alpha " << x.alpha << ", beta " << x.beta
          << ", zeros " << int{x.ao} << ", " << int{x.bo};
    }
    for (std::int64_t j = x.n; j < ldc; ++j)
      ASSERT_EQ(c[i * ldc + j], before[i * ldc + j]) << "padding of row " << i;
  }
}

template <class SourceA>
void sweep_api() {
  std::mt19937 rng(11);
  const std::int64_t sizes[] = {1, 2, 7, 8, 15, 16, 17, 31, 47, 97};
  int index = 0;
  for (std::int64_t m : sizes)
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{6}, std::int64_t{13}, std::int64_t{50}})
      for (std::int64_t k : {std::int64_t{1}, std::int64_t{2}, std::int64_t{3}, std::int64_t{64},
                             std::int64_t{251}}) {
        ++index;
        Case<SourceA> x;
        x.m = m, x.n = n, x.k = k;
        x.trans_a = index % 2 == 1;
        x.trans_b = index % 4 >= 2;
        x.offset = "FCR"[index % 3];
        const float alphas[] = {1, 1, 0.5f, -1.25f, 0};
        const float betas[] = {0, 1, 2, 0, -0.5f};
        x.alpha = alphas[index % 5];
        x.beta = betas[(index / 5) % 5];
        x.ao = static_cast<SourceA>(index * 37);
        x.bo = static_cast<std::int8_t>(index * 53);
        x.pad = index % 3;
        const auto a = random_bytes<SourceA>(
            (x.trans_a ? k : m) * (x.trans_a ? m : k) + (x.trans_a ? k : m) * x.pad, rng);
        const auto b = random_bytes<std::int8_t>(
            (x.trans_b ? n : k) * (x.trans_b ? k : n) + (x.trans_b ? n : k) * x.pad, rng);
        check(x, a, b, rng);
      }
}

TEST(GemmInt8, U8S8MatchesIntegerReference) { sweep_api<std::uint8_t>(); }
TEST(GemmInt8, S8S8MatchesIntegerReference) { sweep_api<std::int8_t>(); }

// All 255 against all -128 (and the other corners), zero points 0 and at the far end, at depths
// where an int16 sum of products would long have saturated: 255 x 128 x 2 already does not fit.
TEST(GemmInt8, ExtremeOperandsStayExact) {
  std::mt19937 rng(3);
  for (std::int64_t k : {2, 33, 1001, 4099}) {
    for (int corner = 0; corner < 4; ++corner) {
      Case<std::uint8_t> x;
      x.m = 19, x.n = 23, x.k = k;
      x.ao = corner % 2 == 0 ? 0 : 255;
      x.bo = corner < 2 ? 0 : 127;
      // Each product 255 x -128 = -32640, or with both zero points -255 x -255 = 65025.
      const std::vector<std::uint8_t> a(x.m * x.k, x.ao == 0 ? 255 : 0);
      const std::vector<std::int8_t> b(x.k * x.n, -128);
      check(x, a, b, rng);
      Case<std::int8_t> y;
      y.m = 19, y.n = 23, y.k = k;
      y.ao = corner % 2 == 0 ? 0 : 127;
      y.bo = corner < 2 ? 0 : 127;
      const std::vector<std::int8_t> as(y.m * y.k, -128), bs(y.k * y.n, -128);
      check(y, as, bs, rng);
    }
  }
}

// Every block tuning `ridge tune` may save, on the packed path across its depth slices and
// blocks, with zero points: exact.
TEST(GemmInt8, ExactUnderEveryBlockTuning) {
  std::mt19937 rng(4);
  for_each_block_tuning([&](const std::string& tuning) {
    SCOPED_TRACE(tuning);
    Case<std::uint8_t> x;
    x.m = 300, x.n = 140, x.k = 2051;
    x.ao = 7, x.bo = -3;
    check(x, random_bytes<std::uint8_t>(x.m * x.k, rng), random_bytes<std::int8_t>(x.k * x.n, rng),
          rng);
  });
}

// A few rows of x against a wide W (x W, W row-major): the column sweep (for 4 and 6 rows where W
// is larger than L2, at 1001 deep), whose threads each sum a part of the depth, added after. Exact
// on every thread count, at odd depths, on random operands and with every product at its
// extreme.
TEST(GemmInt8, FewRowsSplitTheirDepthExactly) {
  std::mt19937 rng(6);
  const int threads = ridge_get_num_threads();
  for (int t : {1, 2, 3})
    for (std::int64_t m : {1, 2, 4, 6})
      for (std::int64_t k : {257, 1001}) {
        ridge_set_num_threads(t);
        Case<std::uint8_t> x;
        x.m = m, x.n = 4099, x.k = k, x.pad = 3, x.ao = 7, x.bo = -5;
        const std::int64_t a_size = m * (k + x.pad), b_size = k * (x.n + x.pad);
        check(x, random_bytes<std::uint8_t>(a_size, rng), random_bytes<std::int8_t>(b_size, rng),
              rng);
        x.ao = 255, x.bo = 127;  // each product (0 - 255) x (-128 - 127)
        check(x, std::vector<std::uint8_t>(a_size, 0), std::vector<std::int8_t>(b_size, -128), rng);
        Case<std::int8_t> y;
        y.m = m, y.n = 4099, y.k = k, y.ao = -128, y.bo = 127;  // (127 + 128) x (-128 - 127)
        check(y, std::vector<std::int8_t>(m * k, 127), std::vector<std::int8_t>(k * y.n, -128),
              rng);
      }
  ridge_set_num_threads(threads);
}

// alpha and beta past int32: the result saturates instead of wrapping; a half rounds to even.
TEST(GemmInt8, SaturatesAndRoundsAsTheReference) {
  std::mt19937 rng(4);
  const std::vector<std::uint8_t> a(3 * 5, 255);
  const std::vector<std::int8_t> b(5 * 4, 127);
  for (float alpha : {1e6f, -1e6f, 0.5f, 1.5f, -2.5f}) {
    Case<std::uint8_t> x;
    x.m = 3, x.n = 4, x.k = 5;
    x.alpha = alpha;
    check(x, a, b, rng);
  }
  std::int32_t c[1] = {2147483000};
  const std::int32_t co = 1000;
  const std::uint8_t one = 1;
  const std::int8_t b_one = 1;
  ASSERT_EQ(
      ridge_gemm_u8s8s32('N', 'N', 'F', 1, 1, 1, 1.0f, &one, 1, 0, &b_one, 1, 0, 1.0f, c, 1, &co),
      0);
  EXPECT_EQ(c[0], 2147483647);
}

TEST(GemmInt8, EveryThreadCountGivesTheSameC) {
  std::mt19937 rng(9);
  const std::int64_t m = 130, n = 517, k = 301;
  const auto a = random_bytes<std::uint8_t>(m * k, rng);
  const auto b = random_bytes<std::int8_t>(k * n, rng);
  const std::int32_t co = 0;
  std::vector<std::int32_t> one(m * n), two(m * n);
  const int threads = ridge_get_num_threads();
  ridge_set_num_threads(1);
  ASSERT_EQ(ridge_gemm_u8s8s32('N', 'N', 'F', m, n, k, 1.0f, a.data(), k, 3, b.data(), n, -7, 0.0f,
                               one.data(), n, &co),
            0);
  ridge_set_num_threads(2);
  ASSERT_EQ(ridge_gemm_u8s8s32('N', 'N', 'F', m, n, k, 1.0f, a.data(), k, 3, b.data(), n, -7, 0.0f,
                               two.data(), n, &co),
            0);
  ridge_set_num_threads(threads);
  EXPECT_EQ(one, two);
}

TEST(GemmInt8, ReportsEachBadArgumentLeavingCUntouched) {
  const std::vector<std::uint8_t> a(6, 1);
  const std::vector<std::int8_t> b(6, 1);
  std::vector<std::int32_t> c(4, 7);
  const std::int32_t co = 0;
  const auto run = [&](char ta, char tb, char oc, std::int64_t m, std::int64_t k, std::int64_t lda,
                       float alpha, const std::uint8_t* a_data, const std::int32_t* co_data) {
    return ridge_gemm_u8s8s32(ta, tb, oc, m, 2, k, alpha, a_data, lda, 0, b.data(), 2, 0, 0.0f,
                              c.data(), 2, co_data);
  };
  EXPECT_EQ(run('X', 'N', 'F', 2, 3, 3, 1, a.data(), &co), RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(run('N', 'C', 'F', 2, 3, 3, 1, a.data(), &co), RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(run('N', 'N', 'Z', 2, 3, 3, 1, a.data(), &co), RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(run('N', 'N', 'F', 2, 3, 3, NAN, a.data(), &co), RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(run('N', 'N', 'F', -1, 3, 3, 1, a.data(), &co), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(run('N', 'N', 'F', 2, 3, 2, 1, a.data(), &co), RIDGE_ERROR_BAD_SIZE);  // lda < k
  EXPECT_EQ(run('T', 'N', 'F', 2, 3, 1, 1, a.data(), &co), RIDGE_ERROR_BAD_SIZE);  // lda < m
  EXPECT_EQ(run('N', 'N', 'F', 2, 3, 3, 1, nullptr, &co), RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(run('N', 'N', 'F', 2, 3, 3, 1, a.data(), nullptr), RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(ridge_gemm_s8s8s32('N', 'N', 'F', 2, 2, 3, 1.0f, nullptr, 3, 0, b.data(), 2, 0, 0.0f,
                               c.data(), 1, &co),
            RIDGE_ERROR_BAD_SIZE);  // ldc < n
  EXPECT_EQ(c, std::vector<std::int32_t>(4, 7));
  // Nothing to compute: no pointer is read.
  EXPECT_EQ(run('N', 'N', 'F', 0, 3, 3, 1, nullptr, nullptr), 0);
}

// Sizes whose product does not fit in 64 bits (2^32 x 2^32) are not mistaken for an empty C:
// a null C or A is still reported (and nothing is read or written).
TEST(GemmInt8, ChecksPointersWhereTheSizesProductOverflows) {
  constexpr std::int64_t kHuge = std::int64_t{1} << 32;
  const std::uint8_t a = 1;
  const std::int8_t b = 1;
  const std::int32_t co = 0;
  std::int32_t c = 0;
  EXPECT_EQ(ridge_gemm_u8s8s32('N', 'N', 'F', kHuge, kHuge, 1, 1.0f, &a, 1, 0, &b, kHuge, 0, 0.0f,
                               nullptr, kHuge, &co),
            RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(ridge_gemm_s8s8s32('N', 'N', 'F', kHuge, kHuge, 1, 1.0f, nullptr, 1, 0, &b, kHuge, 0,
                               0.0f, &c, kHuge, &co),
            RIDGE_ERROR_NULL_POINTER);
  ridge_packed_matrix* packed = nullptr;
  EXPECT_EQ(ridge_gemm_s8_pack_b('N', kHuge, kHuge, nullptr, kHuge, 0, &packed),
            RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(packed, nullptr);
  EXPECT_EQ(c, 0);
}

}  // namespace
}  // namespace ridge::test
