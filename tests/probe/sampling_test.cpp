// The measurement loop: the first run is discarded, the median and spread are those of the kept
// runs, noisy runs are flagged, and the pinned team runs every member.
#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <vector>

#include "probe/pinned_team.hpp"
#include "probe/sampling.hpp"
#include "ridge/machine.hpp"

namespace ridge::test {
namespace {

TEST(Sampling, DiscardsTheFirstRunAndTakesTheMedian) {
  int call = 0;
  probe::detail::SamplingPolicy policy;
  policy.min_samples = 5;
  policy.target_spread = 0.5;
  // Warm-up 1000 (a cold cache), then 10, 12, 11, 10, 11.
  const std::vector<double> values = {1000, 10, 12, 11, 10, 11};
  const probe::Figure f = probe::detail::measure([&] { return values[static_cast<std::size_t>(call++)]; }, policy);
  EXPECT_EQ(f.samples, 5);
  EXPECT_DOUBLE_EQ(f.median, 11);
  EXPECT_DOUBLE_EQ(f.spread, 2.0 / 11);
  EXPECT_TRUE(f.noisy);  // 18% > kNoisySpread
}

TEST(Sampling, StopsWhenRunsAgreeOrAtTheLimit) {
  probe::detail::SamplingPolicy policy;
  policy.min_samples = 3;
  policy.max_samples = 7;
  policy.time_limit_s = 100;
  int calls = 0;
  const probe::Figure steady = probe::detail::measure([&] { ++calls; return 5.0; }, policy);
  EXPECT_EQ(steady.samples, 3);
  EXPECT_EQ(calls, 4);
  EXPECT_FALSE(steady.noisy);
  double x = 1;
  const probe::Figure wild = probe::detail::measure([&] { return x *= 2; }, policy);
  EXPECT_EQ(wild.samples, 7);
  EXPECT_TRUE(wild.noisy);
}

TEST(Sampling, CalibrateScalesTheCountToTheTarget) {
  // A fake clock: each unit of work takes 1 microsecond.
  const std::int64_t count = probe::detail::calibrate([](std::int64_t n) { return 1e-6 * static_cast<double>(n); }, 0.01);
  EXPECT_NEAR(static_cast<double>(count), 10000, 1);
}

TEST(PinnedTeam, RunsEveryMemberOnItsCpu) {
  const std::vector<int> cpus = probe::detail::first_cpus(Machine::current().logical_cpus);
  probe::detail::PinnedTeam team(cpus);
  ASSERT_EQ(team.size(), static_cast<int>(cpus.size()));
  for (int round = 0; round < 3; ++round) {
    std::vector<int> ran_on(cpus.size(), -1);
    const double seconds = team.run([&](int member) { ran_on[static_cast<std::size_t>(member)] = sched_getcpu(); });
    EXPECT_GT(seconds, 0);
    EXPECT_EQ(ran_on, cpus);
  }
}

}  // namespace
}  // namespace ridge::test
