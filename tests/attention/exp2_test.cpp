// The softmax's exp2 on its own: its relative error against std::exp2 in double over the whole
// argument range, for each polynomial and on each ISA path this CPU has (the bounds the
// attention accuracy rests on; src/attention/exp2.hpp gives the polynomials' own errors). A path
// this CPU lacks is skipped.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "attention/job.hpp"
#include "support/isa_paths.hpp"

namespace ridge::test {
namespace {

using attention_detail::Exp2Kernel;

// The largest relative error over x in [-126, 127]: a dense grid, every integer and the floats
// either side of it (where floor() changes), and odd lengths for the partial-vector tail.
double max_relative_error(Exp2Kernel kernel) {
  std::vector<float> x;
  for (int i = 0; i <= 253 * 4096; ++i) x.push_back(-126.0f + static_cast<float>(i) / 4096);
  for (int n = -125; n <= 126; ++n) {
    x.push_back(std::nextafter(static_cast<float>(n), -200.0f));
    x.push_back(std::nextafter(static_cast<float>(n), 200.0f));
  }
  x.push_back(0.3f);  // an odd count
  std::vector<float> y(x.size());
  kernel(x.data(), y.data(), static_cast<std::int64_t>(x.size()));
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double exact = std::exp2(static_cast<double>(x[i]));
    worst = std::max(worst, std::fabs(y[i] - exact) / exact);
  }
  return worst;
}

Exp2Kernel kernel_for(Isa isa, Exp2 variant) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512:
      return avx512::exp2_kernel(variant);
    case Isa::avx2:
      return avx2::exp2_kernel(variant);
#endif
    default:
      return generic::exp2_kernel(variant);
  }
}

class Exp2Kernels : public ::testing::TestWithParam<Isa> {};

TEST_P(Exp2Kernels, CubicStaysWithinItsMinimaxError) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  const double error = max_relative_error(kernel_for(GetParam(), Exp2::cubic));
  // The polynomial's own 7.48e-5 (tools/fit_exp2_polynomial.py 3); measured 7.49e-5.
  EXPECT_LT(error, 7.6e-5);
  EXPECT_GT(error, 7.0e-5) << "better than a cubic can be";
}

TEST_P(Exp2Kernels, AccurateIsWithinFloatRounding) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  // Measured 1.44e-7 (AVX2, AVX-512) and 1.48e-7 (generic): about an ulp.
  EXPECT_LT(max_relative_error(kernel_for(GetParam(), Exp2::accurate)), 2.0e-7);
}

TEST_P(Exp2Kernels, ClampsOutsideTheNormalRange) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  const float x[] = {-1000.0f, -126.0f, 127.0f, 1000.0f, 0.0f};
  float y[5];
  kernel_for(GetParam(), Exp2::accurate)(x, y, 5);
  EXPECT_FLOAT_EQ(y[0], std::exp2(-126.0f));
  EXPECT_FLOAT_EQ(y[1], std::exp2(-126.0f));
  EXPECT_FLOAT_EQ(y[2], std::exp2(127.0f));
  EXPECT_FLOAT_EQ(y[3], std::exp2(127.0f));
  EXPECT_FLOAT_EQ(y[4], 1.0f);
}

INSTANTIATE_TEST_SUITE_P(Isa, Exp2Kernels, ::testing::ValuesIn(kAllIsas), isa_test_name);

}  // namespace
}  // namespace ridge::test
