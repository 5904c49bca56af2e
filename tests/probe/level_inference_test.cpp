// Step finding on synthetic curves whose cache sizes are known, with and without noise; the
// bandwidth plateau windows; the sweep sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "probe/bandwidth.hpp"
#include "probe/level_inference.hpp"

namespace ridge::test {
namespace {

using probe::detail::CurvePoint;

struct Level {
  double capacity;
  double ns;
};

// Latency of a cyclic chase over `bytes`: a load hits the first level with probability
// (capacity / bytes)^4 once the working set outgrows it. The power makes the steps as sharp as
// measured ones (Zen 4: 1.1 ns at 32 KiB, 3.8 ns at 45 KiB); with purely random eviction
// (power 1) the tail of each step would stretch over decades of sizes.
double model_latency(const std::vector<Level>& caches, double memory_ns, double bytes) {
  double latency = 0, miss = 1;
  for (const Level& c : caches) {
    const double hit = std::pow(std::min(1.0, c.capacity / bytes), 4) * miss;
    latency += hit * c.ns;
    miss -= hit;
  }
  return latency + miss * memory_ns;
}

// Deterministic +-amplitude noise.
double noise(int i, double amplitude) { return 1 + amplitude * std::sin(12.9898 * i + 78.233); }

std::vector<CurvePoint> curve(const std::vector<Level>& caches, double memory_ns, double amplitude) {
  std::vector<CurvePoint> points;
  int i = 0;
  for (double bytes = 4096; bytes <= (1 << 30); bytes *= std::sqrt(2.0), ++i)
    points.push_back({bytes, model_latency(caches, memory_ns, bytes) * noise(i, amplitude)});
  return points;
}

void expect_steps_at(const std::vector<probe::detail::LevelStep>& steps, const std::vector<Level>& caches) {
  ASSERT_EQ(steps.size(), caches.size());
  for (std::size_t i = 0; i < caches.size(); ++i) {
    // The model reaches a fifth of the way up at 1.06 x capacity; sampling at sqrt(2) steps and
    // interpolating keeps it within [1, 1.5] x.
    EXPECT_GE(steps[i].capacity_bytes, caches[i].capacity) << "level " << i + 1;
    EXPECT_LE(steps[i].capacity_bytes, 1.5 * caches[i].capacity) << "level " << i + 1;
    EXPECT_NEAR(steps[i].below, caches[i].ns, 0.1 * caches[i].ns) << "level " << i + 1;
  }
}

const std::vector<Level> kZen4Like = {{32 << 10, 1.1}, {1 << 20, 3.8}, {7 << 20, 14}};

TEST(LevelInference, FindsEachLevelOfAClearCurve) {
  expect_steps_at(probe::detail::infer_steps(curve(kZen4Like, 150, 0), 4), kZen4Like);
}

TEST(LevelInference, ToleratesRunToRunNoise) {
  expect_steps_at(probe::detail::infer_steps(curve(kZen4Like, 150, 0.04), 4), kZen4Like);
}

TEST(LevelInference, AsksForMoreLevelsThanThereAreAndGetsOnlyTheReal) {
  const std::vector<Level> two = {{48 << 10, 1.0}, {2 << 20, 4.0}};
  expect_steps_at(probe::detail::infer_steps(curve(two, 90, 0.03), 5), two);
}

TEST(LevelInference, FlatCurveHasNoSteps) {
  std::vector<CurvePoint> flat;
  for (int i = 0; i < 30; ++i) flat.push_back({4096.0 * (1 << (i / 2)), 2.0 * noise(i, 0.05)});
  EXPECT_TRUE(probe::detail::infer_steps(flat, 4).empty());
}

TEST(LevelInference, IgnoresOrderAndUnmeasuredPoints) {
  std::vector<CurvePoint> points = curve(kZen4Like, 150, 0);
  std::reverse(points.begin(), points.end());
  points.push_back({1 << 20, 0});  // not measured
  expect_steps_at(probe::detail::infer_steps(points, 4), kZen4Like);
}

TEST(BandwidthPlateaus, TakeThePointsWellInsideEachLevel) {
  std::vector<probe::BandwidthPoint> points;
  for (std::int64_t size : probe::detail::sweep_sizes(8 << 10, 64 << 20, 1)) {
    probe::BandwidthPoint p;
    p.kernel = "triad";
    p.threads = 2;
    p.sweep_bytes = size;
    p.bytes_per_thread = size - 512;
    // 200 GB/s in L1, 100 in L2, 50 in L3, 20 from DRAM, and a transition point at 32 KiB and
    // 4 MiB that no plateau may take in.
    p.gbs.median = size <= (16 << 10) ? 200 : size <= (512 << 10) ? 100 : size <= (2 << 20) ? 50 : 20;
    if (size == (32 << 10) || size == (4 << 20)) p.gbs.median = 1000;
    points.push_back(p);
  }
  const std::vector<probe::detail::LevelWindow> levels = {
      {"l1", 32 << 10, false}, {"l2", 1 << 20, false}, {"l3", 8 << 20, true}, {"dram", 16 << 20, true}};
  const std::vector<probe::BandwidthPlateau> plateaus = probe::detail::bandwidth_plateaus(points, levels);
  ASSERT_EQ(plateaus.size(), 4u);
  EXPECT_EQ(plateaus[0].level, "l1");
  EXPECT_DOUBLE_EQ(plateaus[0].gbs, 200);  // 8 and 16 KiB, below 0.75 x 32 KiB
  EXPECT_EQ(plateaus[0].points, 2);
  EXPECT_DOUBLE_EQ(plateaus[1].gbs, 100);  // 64 .. 512 KiB: within [1.5 x 32 KiB, 0.75 x 1 MiB]
  EXPECT_EQ(plateaus[1].points, 4);
  // L3 is shared, so the total counts: 2 x 1 MiB and 2 x 2 MiB lie in [1.5 MiB, 6 MiB].
  EXPECT_DOUBLE_EQ(plateaus[2].gbs, 50);
  EXPECT_EQ(plateaus[2].points, 2);
  EXPECT_EQ(plateaus[3].level, "dram");
  // Triad has 3 arrays, each of them (both threads together) >= 16 MiB: totals >= 48 MiB, that is
  // 32 and 64 MiB per thread.
  EXPECT_DOUBLE_EQ(plateaus[3].gbs, 20);
  EXPECT_EQ(plateaus[3].points, 2);
}

TEST(SweepSizes, CoverTheRangeInEvenSteps) {
  const std::vector<std::int64_t> sizes = probe::detail::sweep_sizes(4 << 10, 1 << 20, 2);
  ASSERT_EQ(sizes.front(), 4 << 10);
  ASSERT_EQ(sizes.back(), 1 << 20);
  EXPECT_EQ(sizes.size(), 17u);  // 8 octaves x 2 + 1
  for (std::int64_t s : sizes) EXPECT_EQ(s % 512, 0);
}

}  // namespace
}  // namespace ridge::test
