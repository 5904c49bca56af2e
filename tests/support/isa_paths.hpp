// Tests that run once per ISA path: the paths as a test parameter, and the skip of a path this
// CPU lacks (reported as skipped, never as passed).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ridge/isa.hpp"

namespace ridge::test {

inline const std::vector<Isa> kAllIsas = {Isa::generic, Isa::avx2, Isa::avx512};

// For INSTANTIATE_TEST_SUITE_P(..., ::testing::ValuesIn(kAllIsas), isa_test_name).
inline std::string isa_test_name(const ::testing::TestParamInfo<Isa>& info) {
  return isa_name(info.param);
}

}  // namespace ridge::test

// In a test body: skips the test when this CPU cannot run `isa`.
#define RIDGE_SKIP_UNLESS_SUPPORTED(isa) \
  if (!::ridge::isa_supported(isa))      \
  GTEST_SKIP() << "this CPU lacks " << ::ridge::isa_name(isa)
