// The C functions for the version, the thread count and the ISA path.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "ridge/ridge.h"
#include "ridge/isa.hpp"
#include "support/isa_paths.hpp"

namespace ridge::test {
namespace {

TEST(CApi, VersionIsTheHeadersOne) {
  EXPECT_STREQ(ridge_version(), RIDGE_VERSION_STRING);
  EXPECT_EQ(std::string(RIDGE_VERSION_STRING),
            std::to_string(RIDGE_VERSION_MAJOR) + "." + std::to_string(RIDGE_VERSION_MINOR) + "." +
                std::to_string(RIDGE_VERSION_PATCH));
}

TEST(CApi, SetsAndRestoresTheThreadCount) {
  const int initial = ridge_get_num_threads();
  EXPECT_GE(initial, 1);
  ridge_set_num_threads(3);
  EXPECT_EQ(ridge_get_num_threads(), 3);
  EXPECT_EQ(num_threads(), 3);
  ridge_set_num_threads(0);
  EXPECT_EQ(ridge_get_num_threads(), initial);
}

TEST(CApi, RefusesIsaNamesItDoesNotKnow) {
  const std::string before = ridge_get_isa();
  EXPECT_EQ(ridge_set_isa(nullptr), RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(ridge_set_isa("avx1024"), RIDGE_ERROR_UNKNOWN_ISA);
  EXPECT_EQ(ridge_set_isa("AVX2"), RIDGE_ERROR_UNKNOWN_ISA);  // names are lower case
  EXPECT_EQ(before, ridge_get_isa());
}

class CApiIsa : public ::testing::TestWithParam<Isa> {};

// A path this CPU has is taken, one it lacks refused with the choice unchanged.
TEST_P(CApiIsa, SetsAPathTheCpuHasAndRefusesTheRest) {
  const Isa before = active_isa();
  const char* name = isa_name(GetParam());
  if (isa_supported(GetParam())) {
    EXPECT_EQ(ridge_set_isa(name), 0);
    EXPECT_STREQ(ridge_get_isa(), name);
  } else {
    EXPECT_EQ(ridge_set_isa(name), RIDGE_ERROR_UNSUPPORTED_ISA);
    EXPECT_STREQ(ridge_get_isa(), isa_name(before));
  }
  set_isa(before);
}

INSTANTIATE_TEST_SUITE_P(Isa, CApiIsa, ::testing::ValuesIn(kAllIsas), isa_test_name);

}  // namespace
}  // namespace ridge::test
