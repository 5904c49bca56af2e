// The bandwidth sweep. Bytes counted are those the kernel asks for: read and write n x 8, copy
// 2 x n x 8, triad 3 x n x 8, as STREAM counts them. The extra read that a normal store's
// write-allocate causes (the line is fetched before it is overwritten) is NOT counted, so `write`
// and `copy` and `triad` show less than the bus carries; `write_nt` streams past the caches and
// has no such read, which is why it can beat `write` out of DRAM.
#include "probe/bandwidth.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "probe/bandwidth_kernels.hpp"
#include "probe/mapped_buffer.hpp"
#include "probe/pinned_team.hpp"
#include "ridge/isa.hpp"

namespace ridge::probe::detail {
namespace {

BandwidthKernels kernels_for(Isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512: return avx512::bandwidth_kernels();
    case Isa::avx2: return avx2::bandwidth_kernels();
#endif
    default: return generic::bandwidth_kernels();
  }
}

struct KernelCase {
  const char* name;
  int arrays;  // arrays the kernel touches; each gets size / arrays bytes
};
constexpr KernelCase kKernels[] = {
    {"read", 1}, {"write", 1}, {"write_nt", 1}, {"copy", 2}, {"triad", 3}};

// One member's arrays a, b, c: each its own mapping (a holds a whole working set for read and
// write; b and c at most half of one), first touched by the member itself (so the pages are on
// its CPU's memory node) page by page in step, as STREAM's initialisation loop touches its
// arrays. Where one mapping was touched array after array, the one-core DRAM triad measured
// 10-15% lower at equal sizes (19.7-22.7 vs 21.7-26.0 GB/s on the Zen 4 VM): an effect of where
// the kernel placed the pages in DRAM, not of the loop.
struct MemberArrays {
  std::unique_ptr<MappedBuffer> a, b, c;

  explicit MemberArrays(std::int64_t largest) {
    const auto bytes = static_cast<std::size_t>(largest);
    a = std::make_unique<MappedBuffer>(bytes, PageRequest::os_default);
    b = std::make_unique<MappedBuffer>(bytes / 2, PageRequest::os_default);
    c = std::make_unique<MappedBuffer>(bytes / 2, PageRequest::os_default);
    constexpr std::size_t kPage = 4096;
    for (std::size_t offset = 0; offset < bytes; offset += kPage)
      for (const auto& buffer : {a.get(), b.get(), c.get()})
        if (offset < buffer->bytes())
          std::fill_n(reinterpret_cast<double*>(buffer->data() + offset),
                      std::min(kPage, buffer->bytes() - offset) / sizeof(double), 1.0);
  }
};

// Runs `passes` passes of kernel `k` over arrays of `n` elements each.
void run_kernel(const BandwidthKernels& kernels, int k, const MemberArrays& m, std::int64_t n,
                std::int64_t passes, volatile double* sink) {
  double* a = reinterpret_cast<double*>(m.a->data());
  double* b = reinterpret_cast<double*>(m.b->data());
  double* c = reinterpret_cast<double*>(m.c->data());
  for (std::int64_t p = 0; p < passes; ++p) {
    switch (k) {
      case 0: *sink = kernels.read(a, n); break;
      case 1: kernels.write(a, n, 1.0 + static_cast<double>(p)); break;
      case 2: kernels.write_nt(a, n, 1.0 + static_cast<double>(p)); break;
      case 3: kernels.copy(a, b, n); break;
      default: kernels.triad(a, b, c, 3.0, n); break;
    }
  }
}

// GB/s of kernel `k` over a working set of `size` bytes per member, on every member of `team`.
Figure kernel_rate(PinnedTeam& team, const BandwidthKernels& kernels, int k,
                   const std::vector<const MemberArrays*>& members, std::int64_t size,
                   const SamplingPolicy& policy, double sample_s) {
  const std::int64_t n = size / 8 / kKernels[k].arrays / kBandwidthBlock * kBandwidthBlock;
  const double bytes_per_pass = static_cast<double>(n * 8 * kKernels[k].arrays);
  auto seconds_for = [&](std::int64_t passes) {
    return team.run([&](int member) {
      volatile double sink = 0;
      run_kernel(kernels, k, *members[static_cast<std::size_t>(member)], n, passes, &sink);
    });
  };
  const std::int64_t passes = calibrate(seconds_for, sample_s);
  return measure(
      [&] { return bytes_per_pass * static_cast<double>(passes * team.size()) / seconds_for(passes) * 1e-9; },
      policy);
}

// The widest ISA is not always the fastest here. On Zen 4 (which splits each 512-bit access in
// two 256-bit halves) the AVX-512 kernels measured 10-15% below the AVX2 ones from DRAM (one-core
// triad 19-21 vs 24-25 GB/s) and 14% below in L1 (triad 277 vs 321 GB/s). So the candidates race
// on the triad in L1 and from DRAM, and the faster by geometric mean runs the sweep.
Isa fastest_kernels(PinnedTeam& one, const std::vector<const MemberArrays*>& arrays, std::int64_t largest,
                    const BandwidthPlan& plan) {
  std::vector<Isa> candidates = {active_isa()};
#if defined(__x86_64__)
  if (active_isa() == Isa::avx512 && isa_supported(Isa::avx2)) candidates.push_back(Isa::avx2);
#endif
  if (candidates.size() == 1) return candidates[0];
  constexpr int kTriad = 4;
  Isa best = candidates[0];
  double best_score = 0;
  for (Isa isa : candidates) {
    const BandwidthKernels kernels = kernels_for(isa);
    const double score =
        kernel_rate(one, kernels, kTriad, arrays, 16 << 10, plan.policy, plan.sample_s).median *
        kernel_rate(one, kernels, kTriad, arrays, largest, plan.policy, plan.sample_s).median;
    if (score > best_score) {
      best = isa;
      best_score = score;
    }
  }
  return best;
}

int kernel_arrays(const std::string& kernel) {
  for (const KernelCase& k : kKernels)
    if (kernel == k.name) return k.arrays;
  return 1;
}

}  // namespace

std::vector<std::int64_t> sweep_sizes(std::int64_t first, std::int64_t last, int per_octave) {
  std::vector<std::int64_t> sizes;
  for (int step = 0;; ++step) {
    const double exact = static_cast<double>(first) * std::exp2(static_cast<double>(step) / per_octave);
    const std::int64_t size = static_cast<std::int64_t>(exact) / 512 * 512;
    if (size > last) break;
    if (sizes.empty() || size != sizes.back()) sizes.push_back(size);
  }
  return sizes;
}

BandwidthSweep measure_bandwidth(const BandwidthPlan& plan,
                                 const std::function<void(const std::string&)>& progress) {
  BandwidthSweep sweep;
  BandwidthKernels kernels{};
  for (int threads : plan.thread_counts) {
    if (progress) progress("bandwidth on " + std::to_string(threads) + " thread(s)");
    std::vector<std::int64_t> sizes;
    for (std::int64_t size : plan.sizes)
      if (sizes.empty() || sizes.back() * threads < plan.largest_total) sizes.push_back(size);
    const std::int64_t largest = sizes.back();
    PinnedTeam team(first_cpus(threads));
    std::vector<std::unique_ptr<MemberArrays>> owned(static_cast<std::size_t>(team.size()));
    team.run([&](int member) { owned[static_cast<std::size_t>(member)] = std::make_unique<MemberArrays>(largest); });
    std::vector<const MemberArrays*> members;
    for (const auto& m : owned) members.push_back(m.get());
    if (kernels.read == nullptr) {
      // Half the largest size: still far beyond the caches, at half the time.
      sweep.isa = fastest_kernels(team, members, largest / 2, plan);
      kernels = kernels_for(sweep.isa);
    }
    for (int k = 0; k < static_cast<int>(std::size(kKernels)); ++k) {
      if (k == 2 && kernels.write_nt == nullptr) continue;
      if (!plan.kernels.empty() && std::find(plan.kernels.begin(), plan.kernels.end(),
                                             kKernels[k].name) == plan.kernels.end())
        continue;
      for (std::int64_t size : sizes) {
        const std::int64_t n = size / 8 / kKernels[k].arrays / kBandwidthBlock * kBandwidthBlock;
        if (n == 0) continue;
        BandwidthPoint point;
        point.kernel = kKernels[k].name;
        point.threads = team.size();
        point.sweep_bytes = size;
        point.bytes_per_thread = n * 8 * kKernels[k].arrays;
        point.gbs = kernel_rate(team, kernels, k, members, size, plan.policy, plan.sample_s);
        sweep.points.push_back(point);
      }
    }
    // Free each member's memory on its own thread: the team is about to go.
    team.run([&](int member) { owned[static_cast<std::size_t>(member)].reset(); });
  }
  return sweep;
}

std::vector<BandwidthPlateau> bandwidth_plateaus(const std::vector<BandwidthPoint>& points,
                                                 const std::vector<LevelWindow>& levels) {
  std::vector<BandwidthPlateau> plateaus;
  std::vector<std::pair<std::string, int>> series;  // (kernel, threads) in the order measured
  for (const BandwidthPoint& p : points)
    if (std::find(series.begin(), series.end(), std::pair{p.kernel, p.threads}) == series.end())
      series.emplace_back(p.kernel, p.threads);
  for (const auto& [kernel, threads] : series) {
    for (std::size_t i = 0; i < levels.size(); ++i) {
      const LevelWindow& level = levels[i];
      const bool dram = level.name == "dram";
      const double low =
          dram ? level.capacity * kernel_arrays(kernel) : (i == 0 ? 0.0 : 1.5 * levels[i - 1].capacity);
      const double high = dram ? INFINITY : 0.75 * level.capacity;
      std::vector<double> values;
      bool noisy = false;
      for (const BandwidthPoint& p : points) {
        if (p.kernel != kernel || p.threads != threads) continue;
        const double per_thread = static_cast<double>(p.sweep_bytes);
        const double total = per_thread * threads;
        const double seen = dram || level.shared ? total : per_thread;
        if (seen < low || seen > high) continue;
        values.push_back(p.gbs.median);
        noisy = noisy || p.gbs.noisy;
      }
      if (values.empty()) continue;
      std::sort(values.begin(), values.end());
      const std::size_t n = values.size();
      const double median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
      plateaus.push_back({kernel, level.name, threads, median, static_cast<int>(n), noisy});
    }
  }
  return plateaus;
}

}  // namespace ridge::probe::detail

namespace ridge::probe {

Figure read_bandwidth(int threads, std::int64_t bytes_per_thread) {
  if (threads < 1) throw std::invalid_argument("ridge::probe::read_bandwidth: threads < 1");
  if (bytes_per_thread < kBandwidthBlock * 8)
    throw std::invalid_argument("ridge::probe::read_bandwidth: bytes_per_thread below one block");
  detail::BandwidthPlan plan;
  plan.sizes = {bytes_per_thread};
  plan.largest_total = bytes_per_thread * threads;
  plan.thread_counts = {threads};
  plan.kernels = {"read"};
  return detail::measure_bandwidth(plan, {}).points.front().gbs;
}

}  // namespace ridge::probe
