// Load latency: a dependent pointer chase through a random single-cycle permutation of cache
// lines, over buffer sizes, with 2 MiB pages and (at a few sizes) 4 KiB pages.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "probe/sampling.hpp"
#include "ridge/probe.hpp"

namespace ridge::probe::detail {

struct LatencyPlan {
  std::vector<std::int64_t> sizes;             // with 2 MiB pages (MADV_HUGEPAGE)
  std::vector<std::int64_t> small_page_sizes;  // again with 4 KiB pages (MADV_NOHUGEPAGE)
  int line_bytes = 64;
  std::int64_t warm_up_below = 0;  // sizes up to this get a full pass before timing (caches)
  SamplingPolicy policy;
  double sample_s = 0.01;
};

std::vector<LatencyPoint> measure_latency(const LatencyPlan& plan,
                                          const std::function<void(const std::string&)>& progress);

// Builds the chase in `buffer`: the first word of each `line_bytes` line points to the line
// after it in random_cycle order. Returns the number of lines.
std::int64_t build_chase(char* buffer, std::int64_t bytes, int line_bytes, std::uint64_t seed);

// Follows `loads` pointers (rounded up to a multiple of 8, the unrolling) from `start`; returns
// where it stopped.
const void* chase(const void* start, std::int64_t loads);

}  // namespace ridge::probe::detail
