// The page-strided stream step of the probe: the sustained count read off a curve, and the
// measurement's curve itself.
#include <gtest/gtest.h>

#include <vector>

#include "probe/page_streams.hpp"

namespace ridge::test {
namespace {

std::vector<probe::PageStreamPoint> curve(const std::vector<std::pair<int, double>>& rates) {
  std::vector<probe::PageStreamPoint> points;
  for (const auto& [streams, gbs] : rates) points.push_back({streams, {gbs, 0.01, 5, false}});
  return points;
}

TEST(PageStreams, SustainedCountIsTheLastBeforeTheRateFalls) {
  // The 2-vCPU Xeon guest's shape: flat, then a cliff.
  EXPECT_EQ(probe::detail::sustained_page_streams(
                curve({{8, 20.2}, {16, 21.3}, {24, 21.2}, {32, 20.3}, {40, 18.9}, {48, 18.2},
                       {56, 11.5}, {64, 8.5}})),
            32);
  // In any order; a recovery past the first fall does not count.
  EXPECT_EQ(probe::detail::sustained_page_streams(
                curve({{64, 20.0}, {8, 20.0}, {32, 15.0}, {16, 19.5}})),
            16);
  // No fall: every count measured.
  EXPECT_EQ(probe::detail::sustained_page_streams(curve({{8, 10.0}, {256, 9.5}})), 256);
  // The best at the smallest count only.
  EXPECT_EQ(probe::detail::sustained_page_streams(curve({{8, 10.0}, {16, 5.0}})), 8);
  EXPECT_EQ(probe::detail::sustained_page_streams({}), 0);
  EXPECT_EQ(probe::detail::sustained_page_streams(curve({{8, 0.0}})), 0);
}

TEST(PageStreams, KeptCountReadsFurtherDownASlopeThanOverACliff) {
  using probe::detail::kKeptShare;
  using probe::detail::sustained_page_streams;
  // The Zen 5 host's slope: 8 streams at full rate, 40 at seven tenths of the best.
  const auto slope =
      curve({{8, 29.6}, {16, 25.6}, {24, 27.8}, {32, 24.3}, {40, 21.9}, {48, 20.5}, {64, 18.9}});
  EXPECT_EQ(sustained_page_streams(slope), 8);
  EXPECT_EQ(sustained_page_streams(slope, kKeptShare), 40);
  // The Zen 3 host's early fall: 8 either way.
  const auto fall = curve({{8, 30.0}, {16, 20.0}, {32, 17.0}, {64, 15.0}});
  EXPECT_EQ(sustained_page_streams(fall), 8);
  EXPECT_EQ(sustained_page_streams(fall, kKeptShare), 8);
  // The Xeon guest's cliff: 32 and 48.
  const auto cliff = curve({{8, 20.2},
                            {16, 21.3},
                            {24, 21.2},
                            {32, 20.3},
                            {40, 18.9},
                            {48, 18.2},
                            {56, 11.5},
                            {64, 8.5}});
  EXPECT_EQ(sustained_page_streams(cliff, kKeptShare), 48);
}

TEST(PageStreams, MeasuresEveryCountOnce) {
  const probe::detail::SamplingPolicy one_run{1, 1, 1.0, 0.0};
  const std::vector<probe::PageStreamPoint> points =
      probe::detail::measure_page_streams(one_run);
  const std::vector<int> counts = probe::detail::page_stream_counts();
  ASSERT_EQ(points.size(), counts.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i].streams, counts[i]);
    EXPECT_GT(points[i].gbs.median, 0.0) << counts[i] << " streams";
  }
  EXPECT_GE(probe::detail::sustained_page_streams(points), counts.front());
}

}  // namespace
}  // namespace ridge::test
