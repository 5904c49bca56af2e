// The matrix-vector kernels of every ISA path, called directly: the dot kernel over every column
// group and row tile (a last tile of fewer rows, depths that end mid-vector), the column sweep
// (f32, f64, bf16) over row blocks of any size and column groups with remainders, whole or in
// parts of the depth, each with and without fetching ahead, and against several columns of x at
// once; independent of this host's caches.
#include "kernels/vector_kernels.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "gemv/reference.hpp"
#include "kernels/sweep_parts.hpp"
#include "support/alpha_beta.hpp"
#include "support/isa_paths.hpp"

namespace ridge::test {
namespace {

// C (m x n, column-major) = alpha * A B + beta * C with A's rows contiguous (row-major A) and
// B's columns or rows: the dot kernel's layouts; with one column, also the kernel GEMV's A^T x
// runs (vector_dot, taller tiles).
template <class T>
void sweep_dot(Isa isa) {
  const kernels::VectorKernels<T>& kernels = kernels::vector_kernels<T>(isa);
  const int w = kernels.width;
  int index = 0;
  for (int m = 1; m <= 13; ++m)
    for (int n = 1; n <= 9; ++n)
      for (int k : {1, w - 1, w, w + 1, 3 * w + 5})
        for (bool prefetch : {false, true})
          for (bool vector_dot : {false, true}) {
            if (k < 1 || (vector_dot && n != 1)) continue;
            const auto [alpha, beta] = alpha_beta<T>(index++);
            std::mt19937 rng(static_cast<unsigned>(index));
            // B's columns contiguous, or every other product its rows (x stored transposed).
            const Layout b_layout = index % 2 == 0 ? Layout::col_major : Layout::row_major;
            Matrix<T> a(m, k, Layout::row_major, 3), b(k, n, b_layout, 2),
                c(m, n, Layout::col_major, 1);
            a.fill_random(rng);
            b.fill_random(rng);
            c.fill_random(rng);
            const Reference<T> want =
                reference_gemm(alpha, a, Transpose::none, b, Transpose::none, beta, c);
            const bool b_columns = b_layout == Layout::col_major;
            const auto p = kernels::GemmProblem<T>::from_strides(
                m, n, k, alpha, a.data(), a.ld, 1, b.data(), b_columns ? 1 : b.ld,
                b_columns ? b.ld : 1, beta, c.data(), 1, c.ld);
            std::vector<T> copy(static_cast<std::size_t>(kernels::dot_workspace_elements(k, n, w)));
            (vector_dot ? kernels.vector_dot : kernels.dot)(p, prefetch, copy.data());
            ASSERT_EQ(compare(c, want), "") << m << "x" << n << "x" << k << " prefetch " << prefetch
                                            << " vector_dot " << vector_dot;
          }
}

// Every choice of what the column sweep fetches ahead: the results do not depend on it.
constexpr kernels::SweepFetch kSweepFetches[] = {
    {false, false}, {true, false}, {false, true}, {true, true}};
std::string describe(kernels::SweepFetch fetch) {
  return std::string("next ") + (fetch.next ? "1" : "0") + " far " + (fetch.far ? "1" : "0");
}

// The column sweep of p (any number of x's columns) in row blocks of row_block rows: in one
// sweep, or as `parts` parts of the depth (column_sums, then column_finish; a part may be empty).
template <class T, class Stored>
void run_column_sweep(const kernels::VectorKernels<T>& kernels,
                      const kernels::GemvProblem<T, Stored>& p, std::int64_t row_block,
                      kernels::SweepFetch fetch, int parts) {
  const auto sweep = [&]() {
    if constexpr (std::is_same_v<Stored, T>) {
      return kernels.column_sweep;
    } else {
      return kernels.column_sweep_bf16;
    }
  }();
  const auto sums_of = [&]() {
    if constexpr (std::is_same_v<Stored, T>) {
      return kernels.column_sums;
    } else {
      return kernels.column_sums_bf16;
    }
  }();
  if (parts == 1) {
    std::vector<T> t(static_cast<std::size_t>(row_block * p.columns));
    sweep(p, row_block, fetch, t.data());
    return;
  }
  // Part q's sums of x's column c at (q * columns + c) * m.
  const std::int64_t m = p.m;
  std::vector<T> sums(static_cast<std::size_t>(parts * p.columns * m));
  for (int q = 0; q < parts; ++q) {
    auto part = p;
    const std::int64_t c0 = kernels::sweep_part_begin(p.n, parts, q);
    part.n = kernels::sweep_part_begin(p.n, parts, q + 1) - c0;
    part.a = p.a + c0 * p.lda;
    part.x = p.x + c0 * p.columns;
    sums_of(part, row_block, fetch, sums.data() + q * p.columns * m, m);
  }
  for (std::int64_t c = 0; c < p.columns; ++c)
    kernels.column_finish(m, parts, sums.data() + c * m, p.columns * m, p.alpha, p.beta,
                          p.y + c * p.ldy);
}

// y = alpha * A x + beta * y, A column-major m x n, in row blocks of row_block rows: in one
// sweep, or as `parts` parts of the depth (column_sums, then column_finish; a part may be empty);
// float also with A stored as bf16 (its values A's, cut to bf16).
template <class T>
void sweep_column_sweep(Isa isa) {
  const kernels::VectorKernels<T>& kernels = kernels::vector_kernels<T>(isa);
  const int w = kernels.width;
  int index = 0;
  for (std::int64_t row_block : {std::int64_t{w}, std::int64_t{3 * w + 1}, std::int64_t{1000}})
    for (std::int64_t m : {std::int64_t{1}, std::int64_t{w - 1}, std::int64_t{w + 1},
                           std::int64_t{2 * w + 1}, 2 * row_block + 3})
      for (std::int64_t n = 1; n <= 17; ++n)
        for (const kernels::SweepFetch fetch : kSweepFetches)
          for (int parts : {1, 2, 3})
            for (bool bf16 : {false, true}) {
              if (m < 1 || (bf16 && !std::is_same_v<T, float>)) continue;
              const auto [alpha, beta] = alpha_beta<T>(index++);
              std::mt19937 rng(static_cast<unsigned>(index));
              Matrix<T> a(m, n, Layout::col_major, 2);
              StridedVector<T> x(n, 1), y(m, 1);
              a.fill_random(rng);
              x.fill_random(rng);
              y.fill_random(rng);
              std::vector<std::uint16_t> a_bf16(a.storage.size());
              if constexpr (std::is_same_v<T, float>) {
                for (std::size_t e = 0; e < a.storage.size(); ++e) {
                  a_bf16[e] =
                      static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(a.storage[e]) >> 16);
                  if (bf16) a.storage[e] = std::bit_cast<float>(std::uint32_t{a_bf16[e]} << 16);
                }
              }
              const GemvReference<T> want = reference_gemv(alpha, a, Transpose::none, x, beta, y);
              const auto problem = [&]<class Stored>(const Stored* stored) {
                kernels::GemvProblem<T, Stored> p;
                p.m = m;
                p.n = n;
                p.a = stored;
                p.lda = a.ld;
                p.alpha = alpha;
                p.x = x.blas_pointer();
                p.beta = beta;
                p.y = y.blas_pointer();
                return p;
              };
              if (bf16) {
                run_column_sweep(kernels, problem(a_bf16.data()), row_block, fetch, parts);
              } else {
                run_column_sweep(kernels, problem(a.data()), row_block, fetch, parts);
              }
              ASSERT_EQ(compare(y, want), "")
                  << m << "x" << n << " in blocks of " << row_block << " fetch " << describe(fetch)
                  << " parts " << parts << " bf16 " << bf16;
            }
}

// Y = alpha * A X + beta * Y with A stored as T or bf16 (Stored) and X and Y of 2 to
// kMaxSweepColumns columns (Y's ldy apart, past its rows): each column of Y the bits the sweep
// gives for that column alone (whose results sweep_column_sweep checks against the reference),
// in one sweep or in parts, with and without fetching ahead; the rows between Y's columns
// untouched.
template <class T, class Stored>
void sweep_several_columns(Isa isa) {
  const kernels::VectorKernels<T>& kernels = kernels::vector_kernels<T>(isa);
  const std::int64_t w = kernels.width;
  int index = 0;
  for (std::int64_t row_block : {w, 3 * w + 1, std::int64_t{1000}})
    for (std::int64_t m : {std::int64_t{1}, w - 1, 2 * w + 1, 2 * row_block + 3})
      for (std::int64_t n : {1, 7, 8, 9, 17})
        for (std::int64_t columns = 2; columns <= kernels::kMaxSweepColumns; ++columns)
          for (int parts : {1, 3})
            for (const kernels::SweepFetch fetch : kSweepFetches) {
              const auto [alpha, beta] = alpha_beta<T>(index++);
              std::mt19937 rng(static_cast<unsigned>(index));
              std::uniform_real_distribution<T> dist(-1, 1);
              const auto random = [&](std::int64_t size) {
                std::vector<T> v(static_cast<std::size_t>(size));
                for (T& e : v) e = dist(rng);
                return v;
              };
              const std::vector<T> x = random(n * columns);
              std::vector<Stored> a(static_cast<std::size_t>(m * n));
              for (Stored& e : a) {
                if constexpr (std::is_same_v<Stored, T>) {
                  e = dist(rng);
                } else {  // bf16 bits
                  e = static_cast<Stored>(std::bit_cast<std::uint32_t>(float(dist(rng))) >> 16);
                }
              }
              const std::int64_t ldy = m + 3;
              std::vector<T> y = random(ldy * columns);
              for (std::int64_t c = 0; c < columns; ++c)
                for (std::int64_t i = m; i < ldy; ++i) y[c * ldy + i] = -7;
              std::vector<T> alone = y;
              const auto run = [&](const T* xs, T* ys, std::int64_t count) {
                kernels::GemvProblem<T, Stored> p;
                p.m = m;
                p.n = n;
                p.a = a.data();
                p.lda = m;
                p.alpha = alpha;
                p.x = xs;
                p.beta = beta;
                p.y = ys;
                p.columns = count;
                p.ldy = ldy;
                run_column_sweep(kernels, p, row_block, fetch, parts);
              };
              run(x.data(), y.data(), columns);
              for (std::int64_t c = 0; c < columns; ++c) {
                std::vector<T> xc(static_cast<std::size_t>(n));
                for (std::int64_t q = 0; q < n; ++q) xc[q] = x[q * columns + c];
                run(xc.data(), alone.data() + c * ldy, 1);
              }
              for (std::size_t e = 0; e < y.size(); ++e)
                ASSERT_EQ(std::memcmp(&y[e], &alone[e], sizeof(T)), 0)
                    << m << "x" << n << " x " << columns << " columns, element " << e
                    << ", blocks of " << row_block << " parts " << parts << " fetch "
                    << describe(fetch);
            }
}

class VectorKernels : public ::testing::TestWithParam<Isa> {};

TEST_P(VectorKernels, DotCoversEveryColumnGroupAndRowTile) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  sweep_dot<float>(GetParam());
  sweep_dot<double>(GetParam());
}

TEST_P(VectorKernels, ColumnSweepCoversEveryRowBlockAndColumnGroup) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  sweep_column_sweep<float>(GetParam());
  sweep_column_sweep<double>(GetParam());
}

TEST_P(VectorKernels, ColumnSweepOfSeveralColumnsIsEachColumnAlone) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  sweep_several_columns<float, float>(GetParam());
  sweep_several_columns<double, double>(GetParam());
  sweep_several_columns<float, std::uint16_t>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Isa, VectorKernels, ::testing::ValuesIn(kAllIsas), isa_test_name);

}  // namespace
}  // namespace ridge::test
