// The latency chase's visiting order: one cycle through every element, and a chase built from it
// that reaches every line of the buffer before returning to the start.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "probe/latency.hpp"
#include "probe/mapped_buffer.hpp"
#include "probe/permutation.hpp"

namespace ridge::test {
namespace {

// Steps from 0 until back at 0; every element must be visited exactly once on the way.
void expect_one_cycle(const std::vector<std::uint32_t>& next) {
  const std::size_t n = next.size();
  std::vector<bool> seen(n, false);
  std::uint32_t at = 0;
  std::size_t steps = 0;
  do {
    ASSERT_LT(at, n);
    ASSERT_FALSE(seen[at]) << "element " << at << " visited twice after " << steps << " steps";
    seen[at] = true;
    at = next[at];
    ++steps;
  } while (at != 0 && steps <= n);
  EXPECT_EQ(steps, n);
}

TEST(Permutation, IsOneCycleThroughEveryElement) {
  for (std::uint32_t n : {1u, 2u, 3u, 7u, 64u, 1000u, 100003u, 1u << 20})
    for (std::uint64_t seed : {1ull, 42ull}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", seed = " + std::to_string(seed));
      expect_one_cycle(probe::detail::random_cycle(n, seed));
    }
}

TEST(Permutation, IsNotSequential) {
  // A chase in address order would be prefetched and measure bandwidth, not latency.
  const std::vector<std::uint32_t> next = probe::detail::random_cycle(4096, 7);
  int in_order = 0;
  for (std::uint32_t i = 0; i < next.size(); ++i) in_order += next[i] == (i + 1) % next.size();
  EXPECT_LT(in_order, 16);
  EXPECT_NE(probe::detail::random_cycle(4096, 7), probe::detail::random_cycle(4096, 8));
}

TEST(Permutation, ChaseVisitsEveryLine) {
  constexpr std::int64_t kBytes = 256 << 10;
  constexpr int kLine = 64;
  probe::detail::MappedBuffer buffer(kBytes, probe::detail::PageRequest::os_default);
  const std::int64_t lines = probe::detail::build_chase(buffer.data(), kBytes, kLine, 3);
  ASSERT_EQ(lines, kBytes / kLine);
  std::vector<bool> seen(static_cast<std::size_t>(lines), false);
  const void* at = buffer.data();
  for (std::int64_t i = 0; i < lines; ++i) {
    const std::int64_t offset = static_cast<const char*>(at) - buffer.data();
    ASSERT_EQ(offset % kLine, 0);
    ASSERT_FALSE(seen[static_cast<std::size_t>(offset / kLine)]);
    seen[static_cast<std::size_t>(offset / kLine)] = true;
    at = *static_cast<const void* const*>(at);
  }
  EXPECT_EQ(at, buffer.data());
  // chase() follows the same links: `lines` loads (a multiple of 8) come back to the start.
  EXPECT_EQ(probe::detail::chase(buffer.data(), lines), buffer.data());
}

}  // namespace
}  // namespace ridge::test
