// ridge_sgemm_pack_b and ridge_sgemm_packed, the C API: bit-identical to cblas_sgemm on the B
// packed, for every transposition of A and B and padded leading dimensions; and each error code
// for bad arguments, with C (and the handle) untouched.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>
#include <vector>

#include "gemm/reference.hpp"
#include "ridge/ridge.h"

namespace ridge::test {
namespace {

// Alpha and beta whose products round (0.37, -0.3) as well as exact ones: a product the unpacked
// call takes as dot products (B^T's rows padded) and the packed one as a column sweep (its compact
// copy of one column, 1 x 5 x 1) rounds alpha AB + beta C the same way on every path.
TEST(GemmPackedC, MatchesCblasSgemm) {
  std::mt19937 rng(21);
  for (const auto& [m, n, k] :
       {std::array<int, 3>{1, 70, 40}, {29, 53, 300}, {130, 9, 17}, {1, 5, 1}}) {
    for (CBLAS_TRANSPOSE ta : {CblasNoTrans, CblasTrans}) {
      for (CBLAS_TRANSPOSE tb : {CblasNoTrans, CblasConjTrans}) {
        for (const auto& [alpha, beta] : {std::array<float, 2>{0.5f, 2.0f}, {0.37f, -0.3f}}) {
          Matrix<float> a(ta == CblasNoTrans ? m : k, ta == CblasNoTrans ? k : m, Layout::row_major,
                          2),
              b(tb == CblasNoTrans ? k : n, tb == CblasNoTrans ? n : k, Layout::row_major, 3),
              c(m, n, Layout::row_major, 1);
          a.fill_random(rng);
          b.fill_random(rng);
          c.fill_random(rng);
          Matrix<float> want = c, got = c;
          cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, alpha, a.data(), static_cast<int>(a.ld),
                      b.data(), static_cast<int>(b.ld), beta, want.data(), static_cast<int>(c.ld));
          ridge_packed_matrix* packed = nullptr;
          ASSERT_EQ(ridge_sgemm_pack_b(tb, k, n, b.data(), b.ld, &packed), 0);
          EXPECT_EQ(ridge_sgemm_packed(ta, m, n, k, alpha, a.data(), a.ld, packed, beta, got.data(),
                                       c.ld),
                    0);
          ridge_packed_matrix_destroy(packed);
          EXPECT_EQ(std::memcmp(got.data(), want.data(), got.storage.size() * sizeof(float)), 0)
              << m << "x" << n << "x" << k << " ta " << ta << " tb " << tb << " alpha " << alpha
              << " beta " << beta;
        }
      }
    }
  }
  ridge_packed_matrix_destroy(nullptr);
}

TEST(GemmPackedC, ReportsBadArgumentsLeavingCUntouched) {
  std::vector<float> a(12, 1.0f), b(12, 1.0f), c(9, 7.0f);
  ridge_packed_matrix* const sentinel = reinterpret_cast<ridge_packed_matrix*>(&c);
  ridge_packed_matrix* packed = sentinel;
  EXPECT_EQ(ridge_sgemm_pack_b(static_cast<CBLAS_TRANSPOSE>(0), 4, 3, b.data(), 3, &packed),
            RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(ridge_sgemm_pack_b(CblasNoTrans, -1, 3, b.data(), 3, &packed), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(ridge_sgemm_pack_b(CblasNoTrans, 4, 3, b.data(), 2, &packed), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(ridge_sgemm_pack_b(CblasTrans, 4, 3, b.data(), 3, &packed), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(ridge_sgemm_pack_b(CblasNoTrans, 4, 3, nullptr, 3, &packed), RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(ridge_sgemm_pack_b(CblasNoTrans, 4, 3, b.data(), 3, nullptr), RIDGE_ERROR_NULL_POINTER);
  constexpr int64_t kHuge = int64_t{1} << 32;  // k x n does not fit in 64 bits: still not empty
  EXPECT_EQ(ridge_sgemm_pack_b(CblasNoTrans, kHuge, kHuge, nullptr, kHuge, &packed),
            RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(packed, sentinel);

  ASSERT_EQ(ridge_sgemm_pack_b(CblasNoTrans, 4, 3, b.data(), 3, &packed), 0);
  EXPECT_EQ(ridge_sgemm_packed(static_cast<CBLAS_TRANSPOSE>(0), 3, 3, 4, 1.0f, a.data(), 4, packed,
                               0.0f, c.data(), 3),
            RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(ridge_sgemm_packed(CblasNoTrans, 3, 3, 5, 1.0f, a.data(), 5, packed, 0.0f, c.data(), 3),
            RIDGE_ERROR_BAD_SIZE);  // k is not the packed B's
  EXPECT_EQ(ridge_sgemm_packed(CblasNoTrans, 3, 2, 4, 1.0f, a.data(), 4, packed, 0.0f, c.data(), 3),
            RIDGE_ERROR_BAD_SIZE);  // nor n
  EXPECT_EQ(ridge_sgemm_packed(CblasNoTrans, 3, 3, 4, 1.0f, a.data(), 3, packed, 0.0f, c.data(), 3),
            RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(ridge_sgemm_packed(CblasNoTrans, 3, 3, 4, 1.0f, a.data(), 4, packed, 0.0f, c.data(), 2),
            RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(
      ridge_sgemm_packed(CblasNoTrans, -3, 3, 4, 1.0f, a.data(), 4, packed, 0.0f, c.data(), 3),
      RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(
      ridge_sgemm_packed(CblasNoTrans, 3, 3, 4, 1.0f, a.data(), 4, nullptr, 0.0f, c.data(), 3),
      RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(ridge_sgemm_packed(CblasNoTrans, 3, 3, 4, 1.0f, nullptr, 4, packed, 0.0f, c.data(), 3),
            RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(ridge_sgemm_packed(CblasNoTrans, 3, 3, 4, 1.0f, a.data(), 4, packed, 0.0f, nullptr, 3),
            RIDGE_ERROR_NULL_POINTER);
  for (float x : c) EXPECT_EQ(x, 7.0f);
  EXPECT_EQ(ridge_sgemm_packed(CblasNoTrans, 3, 3, 4, 1.0f, a.data(), 4, packed, 0.0f, c.data(), 3),
            0);
  for (float x : c) EXPECT_EQ(x, 4.0f);
  ridge_packed_matrix_destroy(packed);
}

}  // namespace
}  // namespace ridge::test
