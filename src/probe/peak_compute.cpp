// Peak compute rates: the throughput loops on one pinned thread per CPU, timed together.
#include "probe/peak_compute.hpp"

#include <stdexcept>
#include <string>

#include "probe/fma_loop.hpp"
#include "probe/pinned_team.hpp"
#include "ridge/machine.hpp"
#include "runtime/amx.hpp"

namespace ridge::probe {
namespace {

FmaLoops fma_loops_for(Isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512: return avx512::fma_loops();
    case Isa::avx2: return avx2::fma_loops();
#endif
    default: return generic::fma_loops();
  }
}

// G(FL)OP/s of `loop` on every member of `team` at once, each run taking about `sample_s`.
Figure loop_rate(detail::PinnedTeam& team, ThroughputLoop loop,
                 const detail::SamplingPolicy& policy, double sample_s) {
  std::vector<std::int64_t> ops(static_cast<std::size_t>(team.size()));
  std::vector<double> sinks(ops.size());
  // Returns {seconds, total ops} of one run.
  auto timed = [&](std::int64_t iterations) {
    const double seconds = team.run([&](int member) {
      volatile double sink = 0;
      ops[member] = loop(iterations, &sink);
      sinks[member] = sink;
    });
    std::int64_t total = 0;
    for (std::int64_t o : ops) total += o;
    return std::pair{seconds, total};
  };
  const std::int64_t iterations =
      detail::calibrate([&](std::int64_t n) { return timed(n).first; }, sample_s, 1000);
  return detail::measure(
      [&] {
        const auto [seconds, total] = timed(iterations);
        return static_cast<double>(total) / seconds * 1e-9;
      },
      policy);
}

}  // namespace

double fma_peak_gflops(FmaType type, int threads, Isa isa) {
  if (!isa_supported(isa))
    throw std::invalid_argument(std::string("ridge::probe: this CPU does not support ") +
                                isa_name(isa));
  const FmaLoops loops = fma_loops_for(isa);
  detail::PinnedTeam team(detail::first_cpus(threads));
  const LoopPair& pair = type == FmaType::f32 ? loops.f32 : loops.f64;
  return loop_rate(team, pair.base.run, detail::SamplingPolicy{}, 0.01).median;
}

namespace detail {

std::vector<PeakCase> peak_cases(const IsaFeatures& features, bool avx2_supported,
                                 bool avx512_supported) {
  std::vector<PeakCase> cases;
  const FmaLoops scalar = scalar_fma_loops(), generic = generic::fma_loops();
  cases.push_back({"scalar", "f64", scalar.f64});
  cases.push_back({"scalar", "f32", scalar.f32});
#if defined(__x86_64__)
  const FmaLoops sse = sse_fma_loops();
  cases.push_back({"sse", "f64", sse.f64});
  cases.push_back({"sse", "f32", sse.f32});
#endif
  cases.push_back({"generic", "f64", generic.f64});
  cases.push_back({"generic", "f32", generic.f32});
#if defined(__x86_64__)
  if (avx2_supported) {
    const FmaLoops loops = avx2::fma_loops();
    cases.push_back({"avx2", "f64", loops.f64});
    cases.push_back({"avx2", "f32", loops.f32});
    if (features.avx_vnni) cases.push_back({"avx2", "int8", avx2_vnni::int8_dot_loops()});
  }
  if (avx512_supported) {
    const FmaLoops loops = avx512::fma_loops();
    cases.push_back({"avx512", "f64", loops.f64});
    cases.push_back({"avx512", "f32", loops.f32});
    const DotLoops dots = avx512_bf16::dot_loops();
    if (features.avx512_bf16) cases.push_back({"avx512", "bf16", dots.bf16});
    if (features.avx512_vnni) cases.push_back({"avx512", "int8", dots.int8});
    // The tile unit, where the GEMMs on these types take it (gemm/dispatch.cpp): its rate is
    // the peak they are held to.
    if ((features.amx_bf16 || features.amx_int8) && runtime::amx_usable()) {
      const DotLoops tiles = avx512_amx::tile_loops();
      if (features.amx_bf16) cases.push_back({"amx", "bf16", tiles.bf16});
      if (features.amx_int8) cases.push_back({"amx", "int8", tiles.int8});
    }
  }
#else
  (void)features, (void)avx2_supported, (void)avx512_supported;
#endif
  return cases;
}

std::vector<PeakResult> measure_peaks(const SamplingPolicy& policy, double sample_s) {
  std::vector<PeakResult> results;
  const std::vector<PeakCase> cases =
      peak_cases(Machine::current().isa, isa_supported(Isa::avx2), isa_supported(Isa::avx512));
  for (const PeakCase& c : cases) {
    PeakResult r;
    r.isa = c.isa;
    r.type = c.type;
    r.chains = c.loops.base.chains;
    r.more_chains = c.loops.more.chains;
    results.push_back(r);
  }
  // One team per thread count, so threads are created once, not per measurement.
  {
    PinnedTeam one(first_cpus(1));
    for (std::size_t i = 0; i < cases.size(); ++i) {
      results[i].one_thread = loop_rate(one, cases[i].loops.base.run, policy, sample_s);
      results[i].one_thread_more = loop_rate(one, cases[i].loops.more.run, policy, sample_s);
    }
  }
  const std::vector<int> all = first_cpus(Machine::current().logical_cpus);
  if (all.size() > 1) {
    PinnedTeam team(all);
    for (std::size_t i = 0; i < cases.size(); ++i)
      results[i].all_threads = loop_rate(team, cases[i].loops.base.run, policy, sample_s);
  }
  return results;
}

Figure measure_clock_ghz(const SamplingPolicy& policy, double sample_s) {
  PinnedTeam one(first_cpus(1));
  // Eight dependent adds per iteration; the empty asm makes each add's result opaque, so the
  // compiler cannot fold the chain, and costs no instruction. The loop counter runs in parallel.
  // The addend is a register the compiler cannot see through: a core may fold adds of an
  // immediate into the register renamer at no latency (a Xeon guest ran the `x += 1` chain at
  // 19 "GHz", the register chain at 4.0).
  auto chain = [](std::int64_t iterations) {
    std::int64_t x = 0, step = 1;
    asm volatile("" : "+r"(step));
    for (std::int64_t i = 0; i < iterations; ++i) {
      _Pragma("GCC unroll 8") for (int k = 0; k < 8; ++k) {
        x += step;
        asm volatile("" : "+r"(x));
      }
    }
    return x;
  };
  volatile std::int64_t sink = 0;
  auto seconds_for = [&](std::int64_t iterations) {
    return one.run([&](int) { sink = chain(iterations); });
  };
  const std::int64_t iterations = calibrate(seconds_for, sample_s, 1000);
  return measure([&] { return 8.0 * static_cast<double>(iterations) / seconds_for(iterations) * 1e-9; },
                 policy);
}

}  // namespace detail
}  // namespace ridge::probe
