// The test program's entry point. A suite run under RIDGE_ISA (tests/CMakeLists.txt runs the
// whole suite once per ISA path) for a path this CPU lacks exits with kSkipped, which CTest then
// reports as skipped: the library would fall back to another path, and the run would pass
// under a name that is not true.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "ridge/isa.hpp"

namespace {

constexpr int kSkipped = 77;  // SKIP_RETURN_CODE in tests/CMakeLists.txt

bool requested_path_missing() {
  const char* requested = std::getenv("RIDGE_ISA");
  if (requested == nullptr || *requested == '\0') return false;
  for (ridge::Isa isa : {ridge::Isa::generic, ridge::Isa::avx2, ridge::Isa::avx512})
    if (requested == std::string(ridge::isa_name(isa))) return !ridge::isa_supported(isa);
  return false;  // not a path name: the library says so, and the suite runs on its choice
}

}  // namespace

int main(int argc, char** argv) {
  if (requested_path_missing()) {
    std::printf("RIDGE_ISA=%s: this CPU lacks that path; skipped\n", std::getenv("RIDGE_ISA"));
    return kSkipped;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
