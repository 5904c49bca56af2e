// The epilogues' activations against their exact values (double precision, from the same float
// argument), on each ISA path this CPU has: errors in ulp of the float result over a sweep of
// every 1021st float (both signs, all magnitudes, infinities and NaNs included), and the special
// values on their own.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/epilogue_kernels.hpp"
#include "support/isa_paths.hpp"

namespace ridge::test {
namespace {

using kernels::Activation;

// The two ways an activation may scale its exponential where a result is subnormal
// (kernels::Epilogue::subnormals_at_full_speed): built from its bits, or as arithmetic does.
constexpr bool kScalings[] = {false, true};

// y = f(x) by `isa`'s epilogue kernel, as one column of C.
void activate(Isa isa, Activation f, const std::vector<float>& x, std::vector<float>& y,
              bool subnormals_at_full_speed = false) {
  y = x;
  kernels::Epilogue e;
  e.subnormals_at_full_speed = subnormals_at_full_speed;
  e.ops[0].kind = kernels::PostOp::Kind::activation;
  e.ops[0].f = f;
  e.count = 1;
  e.c = y.data();
  e.ldc = std::max<std::int64_t>(1, static_cast<std::int64_t>(y.size()));
  kernels::epilogue_kernel(isa)(e, y.data(), static_cast<std::int64_t>(y.size()), 1);
}

double exact(Activation f, float x) {
  const double v = x;
  switch (f) {
    case Activation::relu:
      return std::isnan(v) ? v : v > 0 ? v : 0.0;
    case Activation::silu:
      return v / (1 + std::exp(-v));
    case Activation::gelu_tanh: {
      // x (1 + tanh(u)) / 2 as x sigmoid(2 u): no cancellation where tanh(u) nears -1.
      const double u = std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v);
      return v / (1 + std::exp(-2 * u));
    }
    case Activation::gelu_erf:
      return v * std::erfc(-v / std::sqrt(2.0)) / 2;
  }
  return 0;
}

// The spacing of floats at |y| (the subnormal spacing below the normal range).
double ulp_at(double y) {
  const double a = std::fabs(y);
  if (a < std::numeric_limits<float>::min()) return std::ldexp(1.0, -149);
  return std::ldexp(1.0, std::ilogb(a) - 23);
}

struct Errors {
  double normal = 0;     // largest error in ulp where the exact result is a normal float
  double subnormal = 0;  // largest absolute error, in units of 2^-149, below that
};

// Every 1021st float, built once for every activation and path.
const std::vector<float>& sweep() {
  static const std::vector<float> x = [] {
    std::vector<float> v;
    for (std::uint64_t bits = 0; bits <= 0xffffffffu; bits += 1021)
      v.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
    return v;
  }();
  return x;
}

Errors errors(Activation f, Isa isa, bool subnormals_at_full_speed) {
  const std::vector<float>& x = sweep();
  std::vector<float> y;
  activate(isa, f, x, y, subnormals_at_full_speed);
  Errors worst;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double want = exact(f, x[i]);
    if (std::isnan(want) || std::isnan(y[i])) {
      EXPECT_TRUE(std::isnan(want) && std::isnan(y[i])) << "x = " << x[i] << ": " << y[i];
      continue;
    }
    if (std::fabs(want) > std::numeric_limits<float>::max()) {
      EXPECT_EQ(y[i], want) << "x = " << x[i];
      continue;
    }
    const double error = std::fabs(y[i] - want) / ulp_at(want);
    if (std::fabs(want) >= std::numeric_limits<float>::min()) {
      worst.normal = std::max(worst.normal, error);
    } else {
      worst.subnormal = std::max(worst.subnormal, error);
    }
  }
  return worst;
}

class Activations : public ::testing::TestWithParam<Isa> {};

// The bounds measured on every path (generic, AVX2, AVX-512; generic has no fused multiply-add),
// with either scaling:
// ReLU exact; SiLU 2.53-2.88 ulp, GELU (tanh) 2.74-2.79, GELU (erf) 6.24-6.92; subnormal results
// within 1.74 x 2^-149 (one rounding of the scaled exponential).
TEST_P(Activations, StayWithinTheirBounds) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  const struct {
    Activation f;
    double ulp;
  } bounds[] = {{Activation::relu, 0},
                {Activation::silu, 3},
                {Activation::gelu_tanh, 3},
                {Activation::gelu_erf, 7}};
  for (const auto& bound : bounds) {
    for (const bool scaling : kScalings) {
      const Errors e = errors(bound.f, GetParam(), scaling);
      EXPECT_LE(e.normal, bound.ulp) << "activation " << static_cast<int>(bound.f);
      EXPECT_LE(e.subnormal, 2) << "activation " << static_cast<int>(bound.f);
    }
  }
}

// Both scalings give the same bits for every float of the sweep (a NaN for a NaN).
TEST_P(Activations, ScalingsAgree) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  const std::vector<float>& x = sweep();
  for (const Activation f : {Activation::silu, Activation::gelu_tanh, Activation::gelu_erf}) {
    std::vector<float> built, scaled;
    activate(GetParam(), f, x, built, false);
    activate(GetParam(), f, x, scaled, true);
    std::size_t differ = 0, first = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const bool same = std::isnan(built[i]) ? std::isnan(scaled[i])
                                             : std::bit_cast<std::uint32_t>(built[i]) ==
                                                   std::bit_cast<std::uint32_t>(scaled[i]);
      if (!same && differ++ == 0) first = i;
    }
    EXPECT_EQ(differ, 0u) << "activation " << static_cast<int>(f) << ", first at x = " << x[first]
                          << ": " << built[first] << " against " << scaled[first];
  }
}

// The ends and signed zeros, each in a vector's every lane and in a partial tail.
TEST_P(Activations, SpecialValues) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  constexpr float kInf = std::numeric_limits<float>::infinity();
  constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
  const struct {
    float x;
    float relu, silu, gelu;  // GELU's two forms agree at these
  } cases[] = {
      {0.0f, 0.0f, 0.0f, 0.0f},
      {kInf, kInf, kInf, kInf},
      {-kInf, 0.0f, kNan, kNan},  // -inf x 0, as the formulas' IEEE arithmetic gives
      {kNan, kNan, kNan, kNan},
      {-kNan, -kNan, -kNan, -kNan},
      {-3.0e38f, 0.0f, -0.0f, -0.0f},  // far below: the exponential underflows to 0
      {3.0e38f, 3.0e38f, 3.0e38f, 3.0e38f},
  };
  const auto same = [](float got, float want) {
    return std::isnan(want) ? std::isnan(got) : got == want;
  };
  for (const auto& c : cases) {
    for (const std::int64_t n : {1, 17}) {
      const std::vector<float> x(n, c.x);
      std::vector<float> y;
      const struct {
        Activation f;
        float want;
      } expected[] = {{Activation::relu, c.relu},
                      {Activation::silu, c.silu},
                      {Activation::gelu_tanh, c.gelu},
                      {Activation::gelu_erf, c.gelu}};
      for (const auto& e : expected) {
        for (const bool scaling : kScalings) {
          activate(GetParam(), e.f, x, y, scaling);
          for (float v : y)
            EXPECT_TRUE(same(v, e.want))
                << "activation " << static_cast<int>(e.f) << " of " << c.x << ": " << v;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, Activations, ::testing::ValuesIn(kAllIsas), isa_test_name);

}  // namespace
}  // namespace ridge::test
