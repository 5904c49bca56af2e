// Repeated timing with median and spread (the honesty rules of the probe issue).
#include "probe/sampling.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

namespace ridge::probe::detail {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

SamplingPolicy policy_for(bool quick) {
  SamplingPolicy p;
  if (quick) {
    p.min_samples = 4;
    p.max_samples = 15;
    p.time_limit_s = 0.2;
  }
  return p;
}

Figure measure(const std::function<double()>& sample, const SamplingPolicy& policy) {
  sample();  // warm-up: page faults, cache and clock ramp-up
  std::vector<double> values;
  const double start = now_seconds();
  Figure f;
  for (;;) {
    values.push_back(sample());
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    f.median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    f.spread = f.median > 0 ? (sorted.back() - sorted.front()) / f.median : 0;
    f.samples = static_cast<int>(n);
    if (f.samples < policy.min_samples) continue;
    if (f.spread <= policy.target_spread || f.samples >= policy.max_samples ||
        now_seconds() - start >= policy.time_limit_s)
      break;
  }
  f.noisy = f.spread > kNoisySpread;
  return f;
}

std::int64_t calibrate(const std::function<double(std::int64_t count)>& seconds_for,
                       double target_s, std::int64_t count) {
  count = std::max<std::int64_t>(1, count);
  double seconds = seconds_for(count);
  while (seconds < target_s / 10) {
    count *= 4;
    seconds = seconds_for(count);
  }
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(count * target_s / seconds));
}

}  // namespace ridge::probe::detail
