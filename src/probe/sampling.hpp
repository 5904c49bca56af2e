// Repeated timing: discard the first run, then repeat until the runs agree or time is up.
#pragma once

#include <cstdint>
#include <functional>

#include "ridge/probe.hpp"

namespace ridge::probe::detail {

struct SamplingPolicy {
  int min_samples = 5;
  int max_samples = 25;
  double target_spread = 0.03;  // stop once (max - min) / median is at most this
  double time_limit_s = 0.4;    // or once this much time has gone by
};

// The policy of quick and full mode: quick takes fewer, shorter runs.
SamplingPolicy policy_for(bool quick);

// Calls `sample` (one timed run returning its figure) once to warm up, then as the policy says.
Figure measure(const std::function<double()>& sample, const SamplingPolicy& policy);

// The work count (iterations, passes, loads) whose run takes about `target_s`: grows `count`
// until `seconds_for(count)` takes a tenth of the target, then scales. Always >= 1.
std::int64_t calibrate(const std::function<double(std::int64_t count)>& seconds_for,
                       double target_s, std::int64_t count = 1);

double now_seconds();

}  // namespace ridge::probe::detail
