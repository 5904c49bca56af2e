// The bandwidth sweep. Bytes counted are those the kernel asks for: read and write n x 8, copy
// 2 x n x 8, triad 3 x n x 8, as STREAM counts them. The extra read that a normal store's
// write-allocate causes (the line is fetched before it is overwritten) is NOT counted, so `write`
// and `copy` and `triad` show less than the bus carries; `write_nt` streams past the caches and
// has no such read, which is why it can beat `write` out of DRAM.
#include "probe/bandwidth.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "probe/bandwidth_kernels.hpp"
#include "probe/mapped_buffer.hpp"
#include "probe/pinned_team.hpp"
#include "ridge/isa.hpp"

namespace ridge::probe::detail {
namespace {

BandwidthKernels kernels_for(Isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512: return avx512_bandwidth_kernels();
    case Isa::avx2: return avx2_bandwidth_kernels();
#endif
    default: return generic_bandwidth_kernels();
  }
}

struct KernelCase {
  const char* name;
  int arrays;  // arrays the kernel touches; each gets size / arrays bytes
};
constexpr KernelCase kKernels[] = {
    {"read", 1}, {"write", 1}, {"write_nt", 1}, {"copy", 2}, {"triad", 3}};

// One member's arrays, carved from one mapping that the member itself first touches (so its
// pages are local to its CPU's memory node).
struct MemberArrays {
  std::unique_ptr<MappedBuffer> buffer;
  double* at(std::int64_t offset) const { return reinterpret_cast<double*>(buffer->data()) + offset; }
};

// Runs `passes` passes of kernel `k` over arrays of `n` elements each.
void run_kernel(const BandwidthKernels& kernels, int k, const MemberArrays& m, std::int64_t n,
                std::int64_t passes, volatile double* sink) {
  double* a = m.at(0);
  double* b = m.at(n);
  double* c = m.at(2 * n);
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

std::vector<BandwidthPoint> measure_bandwidth(const BandwidthPlan& plan,
                                              const std::function<void(const std::string&)>& progress) {
  const BandwidthKernels kernels = kernels_for(active_isa());
  const std::int64_t largest = *std::max_element(plan.sizes.begin(), plan.sizes.end());
  std::vector<BandwidthPoint> points;
  for (int threads : plan.thread_counts) {
    if (progress) progress("bandwidth on " + std::to_string(threads) + " thread(s)");
    PinnedTeam team(first_cpus(threads));
    std::vector<MemberArrays> members(static_cast<std::size_t>(team.size()));
    team.run([&](int member) {
      auto buffer = std::make_unique<MappedBuffer>(static_cast<std::size_t>(largest), PageRequest::os_default);
      std::fill_n(reinterpret_cast<double*>(buffer->data()), largest / 8, 1.0);
      members[static_cast<std::size_t>(member)].buffer = std::move(buffer);
    });
    for (int k = 0; k < static_cast<int>(std::size(kKernels)); ++k) {
      if (k == 2 && kernels.write_nt == nullptr) continue;
      for (std::int64_t size : plan.sizes) {
        const std::int64_t n = size / 8 / kKernels[k].arrays / kBandwidthBlock * kBandwidthBlock;
        if (n == 0) continue;
        const double bytes_per_pass = static_cast<double>(n * 8 * kKernels[k].arrays);
        auto seconds_for = [&](std::int64_t passes) {
          return team.run([&](int member) {
            volatile double sink = 0;
            run_kernel(kernels, k, members[static_cast<std::size_t>(member)], n, passes, &sink);
          });
        };
        const std::int64_t passes = calibrate(seconds_for, plan.sample_s);
        BandwidthPoint point;
        point.kernel = kKernels[k].name;
        point.threads = team.size();
        point.sweep_bytes = size;
        point.bytes_per_thread = static_cast<std::int64_t>(bytes_per_pass);
        point.gbs = measure(
            [&] {
              const double seconds = seconds_for(passes);
              return bytes_per_pass * static_cast<double>(passes * team.size()) / seconds * 1e-9;
            },
            plan.policy);
        points.push_back(point);
      }
    }
    // Free each member's memory on its own thread: the team is about to go.
    team.run([&](int member) { members[static_cast<std::size_t>(member)].buffer.reset(); });
  }
  return points;
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
      const double low = dram ? level.capacity : (i == 0 ? 0.0 : 1.5 * levels[i - 1].capacity);
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
