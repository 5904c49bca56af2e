// ridge::probe::run: the parts in dependency order (the clock for cycles, the latency curve for
// the capacities the bandwidth plateaus are read against), and the notes on what the figures mean
// for their trustworthiness.
#include "ridge/probe.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "probe/bandwidth.hpp"
#include "probe/coherence.hpp"
#include "probe/latency.hpp"
#include "probe/level_inference.hpp"
#include "probe/page_streams.hpp"
#include "probe/peak_compute.hpp"

namespace ridge::probe {
namespace {

// How long one timed run lasts. Quick mode keeps the whole probe under 30 s on a 2-CPU VM; runs
// of 3 ms still hold the team's start skew (tens of microseconds) under 2%.
struct Durations {
  double compute_s, bandwidth_s, latency_s, coherence_s;
};
Durations durations_for(bool quick) {
  return quick ? Durations{0.01, 0.003, 0.005, 0.005} : Durations{0.02, 0.01, 0.01, 0.01};
}

std::vector<CacheLevel> data_levels(const Machine& m) {
  std::vector<CacheLevel> levels;
  for (const CacheLevel& c : m.caches)
    if (c.kind != CacheKind::instruction && c.size_bytes > 0) levels.push_back(c);
  return levels;
}

// Gives each step, in order, to the next cache levels' one whose reported size is nearest in log
// scale, if within a factor of 8 (a step farther from every level is the ramp towards DRAM, not
// a cache). The factor is wide because a VM slice can see far less than the CPU reports: 6-7 of
// 32 MiB of L3 on a 2-vCPU Zen 4 VM. Returns, per level, its step or -1.
std::vector<int> assign_steps(const std::vector<CacheLevel>& levels,
                              const std::vector<detail::LevelStep>& steps) {
  std::vector<int> step_of(levels.size(), -1);
  std::size_t next = 0;
  auto distance = [&](std::size_t s, std::size_t l) {
    return std::abs(std::log(steps[s].capacity_bytes / static_cast<double>(levels[l].size_bytes)));
  };
  const double kFarthest = std::log(8.0);
  for (std::size_t s = 0; s < steps.size() && next < levels.size(); ++s) {
    std::size_t best = next;
    for (std::size_t l = next; l < levels.size(); ++l)
      if (distance(s, l) < distance(s, best)) best = l;
    if (distance(s, best) > kFarthest) continue;
    step_of[best] = static_cast<int>(s);
    next = best + 1;
  }
  return step_of;
}

std::string thp_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(in, line);
  const auto open = line.find('['), close = line.find(']');
  return open != std::string::npos && close > open ? line.substr(open + 1, close - open - 1) : "unavailable";
}

std::string percent(double fraction) {
  std::ostringstream out;
  out << static_cast<int>(std::lround(100 * fraction)) << '%';
  return out.str();
}

void note_noisy(Report& r) {
  std::vector<std::string> noisy;
  auto check = [&](const Figure& f, const std::string& what) {
    if (f.samples > 0 && f.noisy) noisy.push_back(what + " (spread " + percent(f.spread) + ")");
  };
  check(r.clock_ghz, "clock");
  for (const PeakResult& p : r.peaks) {
    check(p.one_thread, "peak " + p.isa + " " + p.type + " 1 thread");
    check(p.all_threads, "peak " + p.isa + " " + p.type + " all threads");
  }
  for (const BandwidthPoint& b : r.bandwidth)
    check(b.gbs, b.kernel + " " + std::to_string(b.bytes_per_thread >> 10) + " KiB x" +
                     std::to_string(b.threads));
  for (const LatencyPoint& l : r.latency)
    check(l.ns, "latency " + std::to_string(l.bytes >> 10) + " KiB" + (l.huge_pages ? "" : " (4 KiB pages)"));
  for (std::size_t i = 0; i < r.coherence.core_to_core_ns.size(); ++i)
    for (std::size_t j = i + 1; j < r.coherence.core_to_core_ns.size(); ++j)
      check(r.coherence.core_to_core_ns[i][j], "core-to-core " + std::to_string(r.coherence.cpus[i]) +
                                                   "-" + std::to_string(r.coherence.cpus[j]));
  if (noisy.empty()) return;
  std::string line = "noisy: " + std::to_string(noisy.size()) + " figure(s) spread over " +
                     percent(kNoisySpread) + " between runs (medians shown):";
  constexpr std::size_t kListed = 8;
  for (std::size_t i = 0; i < noisy.size() && i < kListed; ++i) line += (i ? "; " : " ") + noisy[i];
  if (noisy.size() > kListed) line += "; and " + std::to_string(noisy.size() - kListed) + " more";
  r.notes.push_back(line);
}

}  // namespace

Report run(const Options& o) {
  const double start = detail::now_seconds();
  auto progress = [&](const std::string& what) {
    if (o.progress) o.progress(what);
  };
  Report r;
  r.machine = Machine::current();
  r.quick = o.quick;
  const detail::SamplingPolicy policy = detail::policy_for(o.quick);
  const Durations d = durations_for(o.quick);
  const int cpus = r.machine.logical_cpus;
  const std::vector<CacheLevel> levels = data_levels(r.machine);
  const std::int64_t llc = levels.empty() ? (8 << 20) : levels.back().size_bytes;
  if (cpus == 1)
    r.notes.push_back("one CPU in the affinity mask: all-thread figures equal the 1-thread ones; "
                      "core-to-core, false sharing and contention are not measurable");

  progress("core clock");
  r.clock_ghz = detail::measure_clock_ghz(policy, d.compute_s);

  if (o.peaks) {
    progress("peak compute");
    r.peaks = detail::measure_peaks(policy, d.compute_s);
    const IsaFeatures& f = r.machine.isa;
    if (!f.avx512_bf16) r.notes.push_back("bf16 dot product: this CPU has no AVX512_BF16 (omitted)");
    if (!f.avx512_vnni) r.notes.push_back("int8 dot product: this CPU has no AVX512_VNNI (omitted)");
  }

  for (const CacheLevel& c : levels) r.caches.push_back({c.level, c.size_bytes, 0, 0, 0});

  if (o.latency) {
    detail::LatencyPlan plan;
    plan.sizes = detail::sweep_sizes(4 << 10, o.quick ? (std::int64_t{256} << 20) : (std::int64_t{1} << 30),
                                     o.quick ? 2 : 4);
    plan.small_page_sizes =
        o.quick ? std::vector<std::int64_t>{std::int64_t{1} << 20, std::int64_t{16} << 20, std::int64_t{256} << 20}
                : std::vector<std::int64_t>{std::int64_t{1} << 20, std::int64_t{16} << 20, std::int64_t{64} << 20,
                                            std::int64_t{256} << 20, std::int64_t{1} << 30};
    plan.line_bytes = levels.empty() ? 64 : std::max(16, levels.front().line_bytes);
    plan.warm_up_below = 2 * llc;
    plan.policy = policy;
    plan.sample_s = d.latency_s;
    r.latency = detail::measure_latency(plan, progress);
    std::vector<detail::CurvePoint> curve;
    for (const LatencyPoint& p : r.latency)
      if (p.huge_pages) curve.push_back({static_cast<double>(p.bytes), p.ns.median});
    const std::vector<detail::LevelStep> steps =
        detail::infer_steps(curve, static_cast<int>(levels.size()) + 1);
    const std::vector<int> step_of = assign_steps(levels, steps);
    for (std::size_t i = 0; i < r.caches.size(); ++i) {
      if (step_of[i] < 0) {
        r.notes.push_back(std::string("latency: no step found for L").append(std::to_string(r.caches[i].level)));
        continue;
      }
      const detail::LevelStep& step = steps[static_cast<std::size_t>(step_of[i])];
      r.caches[i].from_latency_bytes = static_cast<std::int64_t>(step.capacity_bytes);
      r.caches[i].latency_ns = step.below;
    }
    bool any_huge = false;
    for (const LatencyPoint& p : r.latency) any_huge = any_huge || (p.huge_pages && p.huge_page_fraction > 0);
    if (!any_huge)
      r.notes.push_back("huge pages: the OS backed none of the MADV_HUGEPAGE buffers (transparent "
                        "huge pages: " + thp_mode() + ")");
  }

  if (o.bandwidth) {
    detail::BandwidthPlan plan;
    std::int64_t measured_llc = 0;
    if (!r.caches.empty()) measured_llc = r.caches.back().from_latency_bytes;
    // STREAM's rule: DRAM figures come from arrays of at least 4 x the last-level cache each. On
    // the Zen 4 VM the one-core triad still rose 5-10% from 85 to 128 MiB arrays (measured with
    // bench/probe_check), so smaller arrays would understate DRAM bandwidth.
    const std::int64_t dram_array = 4 * std::max(llc, measured_llc);
    // Up to triad's three such arrays; the full probe goes one octave further, so that even
    // triad's plateau has two points.
    plan.largest_total = (o.quick ? 1 : 2) * 3 * dram_array;
    plan.sizes = detail::sweep_sizes(8 << 10, 2 * plan.largest_total, o.quick ? 1 : 2);
    plan.thread_counts = {1};
    for (int t = 2; t <= cpus; ++t)
      if (!o.quick || t == cpus) plan.thread_counts.push_back(t);
    plan.policy = policy;
    plan.sample_s = d.bandwidth_s;
    detail::BandwidthSweep sweep = detail::measure_bandwidth(plan, progress);
    r.bandwidth = std::move(sweep.points);
    r.bandwidth_isa = isa_name(sweep.isa);
    if (std::none_of(r.bandwidth.begin(), r.bandwidth.end(),
                     [](const BandwidthPoint& p) { return p.kernel == "write_nt"; }))
      r.notes.push_back("write_nt: the " + r.bandwidth_isa +
                        " kernels have no streaming store (omitted)");

    std::vector<detail::CurvePoint> read_curve;
    for (const BandwidthPoint& p : r.bandwidth)
      if (p.kernel == "read" && p.threads == 1 && p.gbs.median > 0)
        read_curve.push_back({static_cast<double>(p.bytes_per_thread), 1 / p.gbs.median});
    const std::vector<detail::LevelStep> steps =
        detail::infer_steps(read_curve, static_cast<int>(levels.size()) + 1);
    const std::vector<int> step_of = assign_steps(levels, steps);
    std::vector<detail::LevelWindow> windows;
    for (std::size_t i = 0; i < levels.size(); ++i) {
      if (step_of[i] >= 0)
        r.caches[i].from_bandwidth_bytes =
            static_cast<std::int64_t>(steps[static_cast<std::size_t>(step_of[i])].capacity_bytes);
      const std::int64_t effective =
          r.caches[i].from_latency_bytes > 0 ? r.caches[i].from_latency_bytes : levels[i].size_bytes;
      windows.push_back({std::string("l").append(std::to_string(levels[i].level)), static_cast<double>(effective),
                         levels[i].shared_by_cpus > 1});
    }
    windows.push_back({"dram", static_cast<double>(dram_array), true});
    r.plateaus = detail::bandwidth_plateaus(r.bandwidth, windows);

    progress("page-strided streams");
    r.page_streams = detail::measure_page_streams(policy);
    r.sustained_page_streams = detail::sustained_page_streams(r.page_streams);
    r.kept_page_streams = detail::sustained_page_streams(r.page_streams, detail::kKeptShare);
  }

  if (o.coherence && cpus > 1) {
    progress("coherence and atomics");
    r.coherence = detail::measure_coherence(policy, d.coherence_s);
    r.coherence_measured = true;
  }
  note_noisy(r);
  r.seconds = detail::now_seconds() - start;
  return r;
}

double best_peak(const Report& r, const std::string& type, bool all_threads) {
  double best = 0;
  for (const PeakResult& p : r.peaks) {
    if (p.type != type) continue;
    // One CPU: "all threads" is the one-thread run.
    const Figure& f = all_threads && p.all_threads.samples > 0 ? p.all_threads : p.one_thread;
    if (all_threads && p.all_threads.samples == 0 && r.machine.logical_cpus > 1) continue;
    best = std::max(best, f.median);
  }
  return best;
}

}  // namespace ridge::probe
