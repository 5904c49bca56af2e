// The measurement of whether subnormal results take microcode assists: its decision, and one
// answer per process.
#include "runtime/subnormal_speed.hpp"

#include <gtest/gtest.h>

namespace ridge::test {
namespace {

TEST(SubnormalSpeed, AssistsAreTensOfTimesSlower) {
  EXPECT_TRUE(runtime::subnormals_at_full_speed(1.0e-6, 1.0e-6));
  EXPECT_TRUE(runtime::subnormals_at_full_speed(1.0e-6, 1.1e-6));  // Zen 5
  EXPECT_FALSE(runtime::subnormals_at_full_speed(1.0e-6, 2.5e-6));
  EXPECT_FALSE(runtime::subnormals_at_full_speed(1.0e-6, 1.0e-4));  // an assist per result
}

TEST(SubnormalSpeed, MeasuredOncePerProcess) {
  const bool first = runtime::subnormals_at_full_speed();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(runtime::subnormals_at_full_speed(), first);
}

}  // namespace
}  // namespace ridge::test
