// The probe's kernels compute what they claim, on every ISA path this CPU has (the others skip):
// bandwidth kernels element by element, dot-product loops exactly, FMA loops' operation counts;
// and the bandwidth sweep runs the kernels its plan names.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "probe/bandwidth.hpp"
#include "probe/bandwidth_kernels.hpp"
#include "probe/fma_loop.hpp"
#include "probe/mapped_buffer.hpp"
#include "probe/peak_compute.hpp"
#include "support/isa_paths.hpp"
#include "ridge/machine.hpp"
#include "ridge/probe.hpp"
#include "runtime/amx.hpp"

namespace ridge::test {
namespace {

probe::BandwidthKernels bandwidth_kernels_for(Isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512: return avx512::bandwidth_kernels();
    case Isa::avx2: return avx2::bandwidth_kernels();
#endif
    default: return generic::bandwidth_kernels();
  }
}

class BandwidthKernels : public ::testing::TestWithParam<Isa> {};

TEST_P(BandwidthKernels, ComputeWhatTheyClaim) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  const probe::BandwidthKernels k = bandwidth_kernels_for(GetParam());
  constexpr std::int64_t n = 40 * probe::kBandwidthBlock;
  probe::detail::MappedBuffer memory(3 * n * sizeof(double), probe::detail::PageRequest::os_default);
  double* a = reinterpret_cast<double*>(memory.data());
  double* b = a + n;
  double* c = b + n;
  for (std::int64_t i = 0; i < n; ++i) {
    b[i] = static_cast<double>(i);
    c[i] = static_cast<double>(2 * i + 1);
  }
  // Small integers: every sum and product below is exact, whatever the order or fusion.
  EXPECT_EQ(k.read(b, n), static_cast<double>(n * (n - 1) / 2));
  k.triad(a, b, c, 3.0, n);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(a[i], b[i] + 3.0 * c[i]) << "triad at " << i;
  k.copy(a, c, n);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(a[i], c[i]) << "copy at " << i;
  k.write(a, n, 5.0);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(a[i], 5.0) << "write at " << i;
  if (GetParam() == Isa::generic) {
    EXPECT_EQ(k.write_nt, nullptr) << "the portable path has no streaming store";
  } else {
    ASSERT_NE(k.write_nt, nullptr);
    k.write_nt(a, n, 7.0);
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(a[i], 7.0) << "write_nt at " << i;
  }
  // Untouched neighbours: the kernels stop at n.
  EXPECT_EQ(b[0], 0.0);
  EXPECT_EQ(c[n - 1], static_cast<double>(2 * n - 1));
}

INSTANTIATE_TEST_SUITE_P(Isa, BandwidthKernels, ::testing::ValuesIn(kAllIsas), isa_test_name);

TEST(PeakLoops, CountTheOperationsTheyDo) {
  const std::vector<probe::detail::PeakCase> cases = probe::detail::peak_cases(
      Machine::current().isa, isa_supported(Isa::avx2), isa_supported(Isa::avx512));
  for (const probe::detail::PeakCase& c : cases) {
    SCOPED_TRACE(std::string(c.isa) + " " + c.type);
    for (const probe::ChainedLoop& loop : {c.loops.base, c.loops.more}) {
      volatile double sink = 0;
      const std::int64_t ops_100 = loop.run(100, &sink);
      EXPECT_TRUE(std::isfinite(sink));
      EXPECT_GT(ops_100, 0);
      EXPECT_EQ(loop.run(300, &sink), 3 * ops_100) << "operations grow with the iterations";
      EXPECT_EQ(ops_100 % (100 * loop.chains), 0) << "a whole number of operations per chain step";
    }
    EXPECT_GT(c.loops.more.chains, c.loops.base.chains);
  }
}

TEST(PeakLoops, DotProductsComputeTheirSums) {
  const IsaFeatures& f = Machine::current().isa;
  if (!isa_supported(Isa::avx512) || !f.avx512_vnni) GTEST_SKIP() << "this CPU lacks AVX512_VNNI";
  const probe::DotLoops dots = avx512_bf16::dot_loops();
  // int8: every step adds 4 x (3 x -2) to each lane of each chain; chain c starts at c. The sink
  // holds lane 0 + lane 15 of the sum over chains.
  for (const probe::ChainedLoop& loop : {dots.int8.base, dots.int8.more}) {
    volatile double sink = 0;
    constexpr std::int64_t kSteps = 1000;
    EXPECT_EQ(loop.run(kSteps, &sink), kSteps * loop.chains * 16 * 8);
    const double per_lane = loop.chains * (loop.chains - 1) / 2.0 - 24.0 * kSteps * loop.chains;
    EXPECT_EQ(sink, 2 * per_lane);
  }
}

#if defined(__x86_64__)
TEST(PeakLoops, AvxVnniDotProductsComputeTheirSums) {
  if (!isa_supported(Isa::avx2) || !Machine::current().isa.avx_vnni)
    GTEST_SKIP() << "this CPU lacks AVX-VNNI";
  const probe::LoopPair int8 = avx2_vnni::int8_dot_loops();
  // Every step adds 4 x (3 x -2) to each lane of each chain; chain c starts at c. The sink holds
  // lane 0 + lane 7 of the sum over chains.
  for (const probe::ChainedLoop& loop : {int8.base, int8.more}) {
    volatile double sink = 0;
    constexpr std::int64_t kSteps = 1000;
    EXPECT_EQ(loop.run(kSteps, &sink), kSteps * loop.chains * 8 * 8);
    const double per_lane = loop.chains * (loop.chains - 1) / 2.0 - 24.0 * kSteps * loop.chains;
    EXPECT_EQ(sink, 2 * per_lane);
  }
}

TEST(PeakLoops, TileProductsComputeTheirSums) {
  const IsaFeatures& f = Machine::current().isa;
  if (!f.amx_int8 || !f.amx_bf16 || !runtime::amx_usable()) GTEST_SKIP() << "no AMX here";
  const probe::DotLoops tiles = avx512_amx::tile_loops();
  constexpr std::int64_t kSteps = 1000;
  // int8: every step adds 64 x (3 x -2) to each element of each accumulator tile; the sink holds
  // the sum of their first elements.
  for (const probe::ChainedLoop& loop : {tiles.int8.base, tiles.int8.more}) {
    volatile double sink = 0;
    EXPECT_EQ(loop.run(kSteps, &sink), kSteps * loop.chains * 16 * 16 * 64 * 2);
    EXPECT_EQ(sink, -384.0 * kSteps * loop.chains);
  }
  // bf16: 32 x (2^-10 x 2^-11) a step, exact in float over these steps.
  for (const probe::ChainedLoop& loop : {tiles.bf16.base, tiles.bf16.more}) {
    volatile double sink = 0;
    EXPECT_EQ(loop.run(kSteps, &sink), kSteps * loop.chains * 16 * 16 * 32 * 2);
    EXPECT_EQ(sink, std::ldexp(32.0 * kSteps, -21) * loop.chains);
  }
}
#endif

TEST(PeakLoops, GuardsSkipWhatTheCpuLacks) {
  // A CPU with no AVX at all gets only the baseline loops.
  IsaFeatures none;
  for (const probe::detail::PeakCase& c : probe::detail::peak_cases(none, false, false)) {
    EXPECT_NE(std::string(c.isa), "avx2");
    EXPECT_NE(std::string(c.isa), "avx512");
  }
  // AVX-512 without the BF16 and VNNI extensions: FMA rows, no dot-product rows.
  IsaFeatures avx512_only;
  avx512_only.avx512f = true;
  for (const probe::detail::PeakCase& c : probe::detail::peak_cases(avx512_only, true, true)) {
    EXPECT_NE(std::string(c.type), "bf16");
    EXPECT_NE(std::string(c.type), "int8");
  }
  // AVX2 with AVX-VNNI and no AVX-512: an int8 row on AVX2, no AVX-512 rows.
  IsaFeatures avx2_vnni;
  avx2_vnni.avx2 = avx2_vnni.avx_vnni = true;
  int avx2_int8 = 0;
  for (const probe::detail::PeakCase& c : probe::detail::peak_cases(avx2_vnni, true, false)) {
    EXPECT_NE(std::string(c.isa), "avx512");
    avx2_int8 += std::string(c.isa) == "avx2" && std::string(c.type) == "int8";
  }
  EXPECT_EQ(avx2_int8, 1);
}

class PeakEntryPoint : public ::testing::TestWithParam<Isa> {};

// The public entry point refuses a path this CPU cannot run (skipped for the paths it has).
TEST_P(PeakEntryPoint, RefusesAPathTheCpuLacks) {
  if (isa_supported(GetParam())) GTEST_SKIP() << "this CPU has " << isa_name(GetParam());
  EXPECT_THROW(probe::fma_peak_gflops(probe::FmaType::f32, 1, GetParam()), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Isa, PeakEntryPoint, ::testing::Values(Isa::avx2, Isa::avx512),
                         isa_test_name);

TEST(BandwidthSweep, RunsOnlyThePlannedKernels) {
  probe::detail::BandwidthPlan plan;
  plan.sizes = {64 << 10};
  plan.largest_total = 64 << 10;
  plan.thread_counts = {1};
  plan.kernels = {"read", "triad"};
  plan.policy = {2, 2, 1.0, 0.1};  // two short runs each: only which kernels ran is checked
  plan.sample_s = 0.001;
  const probe::detail::BandwidthSweep sweep = probe::detail::measure_bandwidth(plan, {});
  ASSERT_EQ(sweep.points.size(), 2u);
  EXPECT_EQ(sweep.points[0].kernel, "read");
  EXPECT_EQ(sweep.points[1].kernel, "triad");
  for (const probe::BandwidthPoint& p : sweep.points) EXPECT_GT(p.gbs.median, 0);
}

TEST(ReadBandwidth, RefusesNoThreadsAndBuffersBelowOneBlock) {
  EXPECT_THROW(probe::read_bandwidth(0, 1 << 20), std::invalid_argument);
  EXPECT_THROW(probe::read_bandwidth(1, 256), std::invalid_argument);
}

}  // namespace
}  // namespace ridge::test
