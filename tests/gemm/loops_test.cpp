// The GEMM loops of every ISA path, called directly with explicit depths, blocks and options, so
// that what they cover does not depend on this host's caches: every micro-tile shape (one and MV
// vectors of rows, 1..NR columns, B packed and in place), the narrow tiles, the even last strips
// of a row, A read in place and packed slab by slab, several depth slices, and the packed path
// across every block boundary, each A block packed before its tiles or copied by the tiles of
// the block before (copy_ahead), the direct path's tiles aligned to A's lines, and the loops on
// an A packed beforehand in each of their orders, with and without an epilogue.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gemm/dispatch.hpp"
#include "gemm/reference.hpp"
#include "simd/cache_line.hpp"
#include "support/alpha_beta.hpp"
#include "support/isa_paths.hpp"
#include "support/line_offset.hpp"

namespace ridge::test {
namespace {

using gemm_detail::BlockSizes;
using gemm_detail::DirectOptions;
using gemm_detail::GemmKernels;

// One product on the internal problem form: A m x k and B k x n in the layouts given (row-major
// A has contiguous depth, so the direct path packs it; column-major A is read in place), C
// column-major with padding the kernels must not touch.
template <class T>
struct Operands {
  Matrix<T> a, b, c;
  Operands(std::int64_t m, std::int64_t n, std::int64_t k, Layout la, Layout lb, unsigned seed)
      : a(m, k, la, 2), b(k, n, lb, 1), c(m, n, Layout::col_major, 3) {
    std::mt19937 rng(seed);
    a.fill_random(rng);
    b.fill_random(rng);
    c.fill_random(rng);
  }
  kernels::GemmProblem<T> problem(T alpha, T beta) {
    std::int64_t a_rs, a_cs, b_rs, b_cs;
    op_strides(a.view(), a_rs, a_cs);
    op_strides(b.view(), b_rs, b_cs);
    return kernels::GemmProblem<T>::from_strides(c.rows, c.cols, a.cols, alpha, a.data(), a_rs,
                                                 a_cs, b.data(), b_rs, b_cs, beta, c.data(), 1,
                                                 c.ld);
  }
};

std::string layout_name(Layout l) { return l == Layout::row_major ? "row" : "col"; }

template <class T>
void sweep_direct(Isa isa) {
  const GemmKernels<T>& kernels = gemm_detail::gemm_kernels<T>(isa).kernels;
  const int mr = kernels.mr, nr = kernels.nr, w = kernels.width;
  const std::set<int> ms = {1, 2, w - 1, w, w + 1, mr - 1, mr, mr + 1, 2 * mr + 3};
  struct Depth {
    std::int64_t k, slice;
  };
  int index = 0;
  for (int m : ms) {
    if (m < 1) continue;
    for (int n = 1; n <= 2 * nr + 1; ++n)
      for (Depth depth : {Depth{1, 1}, Depth{17, 17}, Depth{17, 6}})
        for (Layout la : {Layout::col_major, Layout::row_major})
          for (Layout lb : {Layout::col_major, Layout::row_major})
            for (int variant = 0; variant < 5; ++variant) {
              DirectOptions options;
              options.depth = depth.slice;
              options.pack_b = variant == 2;
              // the narrow tiles for one FMA pipe, and for two (the full tile)
              if (variant == 1) options.narrow_columns = kernels.narrow_columns[0];
              if (variant == 4) options.narrow_columns = kernels.narrow_columns[1];
              options.pack_a = variant == 3;  // a column-major A packed although in place
              // the last two strips of a row even below 4 .. 16 columns (Loops::strip_columns)
              options.fma_chains = 8 * variant;
              const auto [alpha, beta] = alpha_beta<T>(index++);
              Operands<T> x(m, n, depth.k, la, lb, static_cast<unsigned>(index));
              const Reference<T> want =
                  reference_gemm(alpha, x.a, Transpose::none, x.b, Transpose::none, beta, x.c);
              const kernels::GemmProblem<T> p = x.problem(alpha, beta);
              std::vector<std::byte> work(
                  gemm_detail::direct_workspace(p, options, mr, nr).bytes());
              kernels.direct(p, options, work.data());
              ASSERT_EQ(compare(x.c, want), "")
                  << m << "x" << n << "x" << depth.k << " slices of " << depth.slice << ", A "
                  << layout_name(la) << ", B " << layout_name(lb) << ", pack_b " << options.pack_b
                  << ", narrow " << options.narrow_columns << ", pack_a " << options.pack_a
                  << ", FMA chains " << options.fma_chains;
            }
  }
}

template <class T>
void sweep_packed(Isa isa) {
  const GemmKernels<T>& kernels = gemm_detail::gemm_kernels<T>(isa).kernels;
  const int mr = kernels.mr, nr = kernels.nr;
  // Blocks small enough that modest shapes cross every boundary: MC, KC, NC and their remainders.
  const BlockSizes small{2 * mr, 8, 3 * nr, 0};
  const std::set<int> ms = {1, mr - 1, mr + 1, 2 * mr, 5 * mr + 3};
  // n = NR: one full strip, whose tiles in the short last block of a slice (mr + 3 rows of
  // 5 mr + 3) copy the next slice's full block at several vectors a depth step.
  const std::set<int> ns = {1, nr - 1, nr, nr + 1, 3 * nr, 7 * nr + 5};
  int index = 0;
  for (int m : ms)
    for (int n : ns)
      for (int k : {1, 7, 8, 9, 29})
        for (Layout la : {Layout::col_major, Layout::row_major})
          for (Layout lb : {Layout::col_major, Layout::row_major})
            for (bool copy_ahead : {false, true}) {
              if (m < 1 || n < 1) continue;
              if (copy_ahead && la != Layout::col_major) continue;  // a column-contiguous A only
              // Strips NR wide, or the last two evened (from 2 FMA chains up to 2 NR).
              const int fma_chains = (index % 3) * (index % 5);
              const auto [alpha, beta] = alpha_beta<T>(index++);
              Operands<T> x(m, n, k, la, lb, static_cast<unsigned>(index));
              const Reference<T> want =
                  reference_gemm(alpha, x.a, Transpose::none, x.b, Transpose::none, beta, x.c);
              std::vector<std::byte> work(
                  gemm_detail::packed_workspace<T>(m, n, k, small, mr, nr, copy_ahead).bytes());
              kernels.packed(x.problem(alpha, beta), small, {copy_ahead, fma_chains},
                             work.data());
              ASSERT_EQ(compare(x.c, want), "")
                  << m << "x" << n << "x" << k << ", A " << layout_name(la) << ", B "
                  << layout_name(lb) << ", copy ahead " << copy_ahead << ", FMA chains "
                  << fma_chains;
            }
}

// The direct path with line_aligned_tiles on a column-major A whose columns share one line
// offset: every start within a line, rows around the short first tile and the full ones after.
template <class T>
void sweep_line_aligned(Isa isa) {
  const GemmKernels<T>& kernels = gemm_detail::gemm_kernels<T>(isa).kernels;
  const int mr = kernels.mr, nr = kernels.nr;
  constexpr int kLine = simd::kLineElements<T>;
  int index = 0;
  for (int offset = 0; offset < kLine; ++offset)
    for (int m : {1, kLine - 1, mr - 1, mr + 1, 3 * mr + 5})
      for (int n : {1, 3, nr + 1}) {
        const std::int64_t k = 9;
        const std::int64_t ld = (m + kLine - 1) / kLine * kLine + kLine;
        Operands<T> x(m, n, k, Layout::col_major, Layout::col_major, static_cast<unsigned>(index));
        // A again, `offset` elements past a line, lines apart column to column.
        std::vector<T> storage(static_cast<std::size_t>(ld * k + 2 * kLine));
        T* a = past_line_start(storage, offset);
        for (std::int64_t j = 0; j < k; ++j)
          for (std::int64_t i = 0; i < m; ++i) a[i + j * ld] = x.a.at(i, j);
        const auto [alpha, beta] = alpha_beta<T>(index++);
        const Reference<T> want =
            reference_gemm(alpha, x.a, Transpose::none, x.b, Transpose::none, beta, x.c);
        kernels::GemmProblem<T> p = x.problem(alpha, beta);
        p.a = a;
        p.a_cs = ld;
        DirectOptions options;
        options.depth = 4;
        options.line_aligned_tiles = true;
        options.fma_chains = 8;
        kernels.direct(p, options, nullptr);
        ASSERT_EQ(compare(x.c, want), "")
            << m << "x" << n << "x" << k << ", A " << offset << " elements past a line";
      }
}

// The loops on an A packed beforehand (Loops::prepacked), in each of their three orders (B whole
// in L2, a block of B in L2, the packed path's blocks, as the blocks' L2 share picks them), B
// packed or in place, against the direct path at the same slice depth: the same arithmetic, so
// bit for bit; and against the reference.
template <class T>
void sweep_prepacked(Isa isa) {
  const GemmKernels<T>& kernels = gemm_detail::gemm_kernels<T>(isa).kernels;
  const int mr = kernels.mr, nr = kernels.nr;
  int index = 0;
  for (int m : {1, mr - 1, mr + 1, 5 * mr + 3})
    for (int n : {1, nr + 1, 3 * nr, 7 * nr + 5})
      for (const auto& [k, depth] : {std::pair{9, 9}, {29, 8}, {40, 12}})
        for (Layout la : {Layout::col_major, Layout::row_major})
          for (int order = 0; order < 3; ++order)
            for (int variant = 0; variant < (std::is_same_v<T, float> ? 4 : 2); ++variant) {
              const bool b_in_place = variant % 2 == 1;
              // Float also with an epilogue (a bias per row, SiLU, a residual), which the loops
              // apply a block of tiles at a time: then against the direct path only, which
              // applies it a row of tiles at a time.
              const bool with_epilogue = variant >= 2;
              if (b_in_place && order != 0) continue;  // an in-place B takes the first order
              const std::int64_t slice = gemm_detail::round_up(n, nr) * depth;
              // B whole in L2; one depth slice of it (k > depth: not the whole); nothing.
              const std::int64_t l2 = order == 0   ? std::int64_t{1} << 30
                                      : order == 1 ? 2 * slice
                                                   : 0;
              if (order == 1 && k == depth) continue;
              const BlockSizes small{2 * mr, 8, 3 * nr, l2};
              const int fma_chains = (index % 3) * (index % 5);
              const auto [alpha, beta] = alpha_beta<T>(index++);
              Operands<T> x(m, n, k, la, Layout::col_major, static_cast<unsigned>(index));
              const Reference<T> want =
                  reference_gemm(alpha, x.a, Transpose::none, x.b, Transpose::none, beta, x.c);
              kernels::GemmProblem<T> p = x.problem(alpha, beta);
              Matrix<T> direct_c = x.c;
              std::vector<float> bias(static_cast<std::size_t>(m)), residual(m * n);
              for (int i = 0; i < m; ++i) bias[i] = 0.25f * static_cast<float>(i % 7) - 0.5f;
              for (int i = 0; i < m * n; ++i) residual[i] = 0.125f * static_cast<float>(i % 5);
              kernels::Epilogue epilogue, direct_epilogue;
              if constexpr (std::is_same_v<T, float>) {
                epilogue.ops[0] = {kernels::PostOp::Kind::add_rows, bias.data()};
                epilogue.ops[1].f = kernels::Activation::silu;
                epilogue.ops[2] = {kernels::PostOp::Kind::add_matrix, residual.data(), m};
                epilogue.count = 3;
                epilogue.c = x.c.data();
                epilogue.ldc = x.c.ld;
                direct_epilogue = epilogue;
                direct_epilogue.c = direct_c.data();
                if (with_epilogue) p.epilogue = &epilogue;
              }
              kernels::GemmProblem<T> direct = p;
              direct.c = direct_c.data();
              if (with_epilogue) direct.epilogue = &direct_epilogue;
              DirectOptions options;
              options.depth = depth;
              options.fma_chains = fma_chains;
              std::vector<std::byte> direct_work(
                  gemm_detail::direct_workspace(direct, options, mr, nr).bytes());
              kernels.direct(direct, options, direct_work.data());

              std::vector<T> panels(static_cast<std::size_t>(gemm_detail::round_up(m, mr) * k));
              kernels.pack_panels(m, k, p.a, p.a_rs, p.a_cs, 0, panels.data());
              kernels::GemmProblem<T> q = p;
              q.a = panels.data();
              q.a_rs = k;
              q.a_cs = mr;
              std::vector<std::byte> work(
                  gemm_detail::prepacked_workspace<T>(m, n, k, depth, small, mr, nr, b_in_place)
                      .bytes());
              kernels.prepacked(q, depth, small, fma_chains, b_in_place, work.data());
              const std::string what =
                  std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
                  " slices of " + std::to_string(depth) + ", A " + layout_name(la) + ", order " +
                  std::to_string(order) + ", B in place " + std::to_string(b_in_place) +
                  (with_epilogue ? ", epilogue" : "");
              if (!with_epilogue) {
                ASSERT_EQ(compare(x.c, want), "") << what;
              }
              ASSERT_EQ(x.c.storage.size(), direct_c.storage.size());
              for (std::size_t i = 0; i < x.c.storage.size(); ++i)
                ASSERT_TRUE(std::memcmp(&x.c.storage[i], &direct_c.storage[i], sizeof(T)) == 0)
                    << what << ": element " << i << " differs from the direct path's";
            }
}

class GemmLoops : public ::testing::TestWithParam<Isa> {};

TEST_P(GemmLoops, DirectPathRunsEveryTileShape) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  sweep_direct<float>(GetParam());
  sweep_direct<double>(GetParam());
}

TEST_P(GemmLoops, PackedPathCrossesEveryBlockBoundary) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  sweep_packed<float>(GetParam());
  sweep_packed<double>(GetParam());
}

TEST_P(GemmLoops, DirectPathAlignsTilesToLines) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  sweep_line_aligned<float>(GetParam());
  sweep_line_aligned<double>(GetParam());
}

TEST_P(GemmLoops, PrepackedPathMatchesTheDirectPath) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  sweep_prepacked<float>(GetParam());
  sweep_prepacked<double>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Isa, GemmLoops, ::testing::ValuesIn(kAllIsas), isa_test_name);

}  // namespace
}  // namespace ridge::test
