// ridge::gemm's argument checking: each bad argument throws std::invalid_argument naming it,
// and C is left untouched.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "ridge/ridge.hpp"
#include "support/invalid_argument.hpp"
#include "support/isa_paths.hpp"

namespace ridge::test {
namespace {

TEST(GemmApi, RejectsBadArgumentsNamingThem) {
  std::vector<float> a(12, 1.0f), b(12, 1.0f), c(9, 7.0f);
  const auto A = row_major<const float>(a.data(), 3, 4);
  const auto B = row_major<const float>(b.data(), 4, 3);
  const auto C = row_major<float>(c.data(), 3, 3);

  auto bad = A;
  bad.rows = -1;
  EXPECT_NE(error_of([&] { gemm(1.0f, bad, B, 0.0f, C); }).find("a.rows"), std::string::npos);
  bad = A;
  bad.ld = 3;  // below the 4 columns
  EXPECT_NE(error_of([&] { gemm(1.0f, bad, B, 0.0f, C); }).find("a.ld"), std::string::npos);
  auto bad_b = B;
  bad_b.data = nullptr;
  EXPECT_NE(error_of([&] { gemm(1.0f, A, bad_b, 0.0f, C); }).find("b.data"), std::string::npos);
  auto bad_c = C;
  bad_c.cols = 2;
  EXPECT_NE(error_of([&] { gemm(1.0f, A, B, 0.0f, bad_c); }).find("op(b)"), std::string::npos);
  const auto B3 = row_major<const float>(b.data(), 3, 3);  // 3 rows, but op(a) has 4 columns
  EXPECT_NE(error_of([&] { gemm(1.0f, A, B3, 0.0f, C); }).find("op(a) has 4 columns"),
            std::string::npos);
  EXPECT_NE(error_of([&] { gemm(1.0f, A, B, 0.0f, C.transposed()); }).find("c must not"),
            std::string::npos);
  auto bad_cm = col_major<float>(c.data(), 3, 3);
  bad_cm.ld = 2;
  EXPECT_NE(error_of([&] { gemm(1.0f, A, B, 0.0f, bad_cm); }).find("c.ld"), std::string::npos);
  for (float x : c) EXPECT_EQ(x, 7.0f);  // nothing written on error
}

TEST(GemmApi, EmptyMatricesMayHaveNullData) {
  EXPECT_NO_THROW(gemm(1.0, row_major<const double>(nullptr, 0, 5),
                       row_major<const double>(nullptr, 5, 0), 0.0,
                       row_major<double>(nullptr, 0, 0)));
  std::vector<double> c(4, 3.0);
  // K = 0: C = beta * C, A and B (null) not read.
  gemm(1.0, row_major<const double>(nullptr, 2, 0), row_major<const double>(nullptr, 0, 2), 2.0,
       row_major<double>(c.data(), 2, 2));
  for (double x : c) EXPECT_EQ(x, 6.0);
}

class SetIsa : public ::testing::TestWithParam<Isa> {};

// set_isa() takes a path this CPU has and refuses one it lacks, leaving the choice as it was.
TEST_P(SetIsa, TakesWhatTheCpuHasAndRefusesTheRest) {
  const Isa before = active_isa();
  if (isa_supported(GetParam())) {
    set_isa(GetParam());
    EXPECT_EQ(active_isa(), GetParam());
  } else {
    EXPECT_THROW(set_isa(GetParam()), std::invalid_argument);
    EXPECT_EQ(active_isa(), before);
  }
  set_isa(before);
}

INSTANTIATE_TEST_SUITE_P(Isa, SetIsa, ::testing::ValuesIn(kAllIsas), isa_test_name);

TEST(GemmApi, TheBestPathIsSupported) {
  EXPECT_TRUE(isa_supported(Isa::generic));
  EXPECT_TRUE(isa_supported(best_isa()));
}

}  // namespace
}  // namespace ridge::test
