// The latency sweep: ns per dependent load, median of timed runs on one pinned thread.
#include "probe/latency.hpp"

#include "probe/mapped_buffer.hpp"
#include "probe/permutation.hpp"
#include "probe/pinned_team.hpp"

namespace ridge::probe::detail {

std::int64_t build_chase(char* buffer, std::int64_t bytes, int line_bytes, std::uint64_t seed) {
  const auto lines = static_cast<std::uint32_t>(bytes / line_bytes);
  const std::vector<std::uint32_t> next = random_cycle(lines, seed);
  for (std::uint32_t i = 0; i < lines; ++i)
    *reinterpret_cast<char**>(buffer + static_cast<std::int64_t>(i) * line_bytes) =
        buffer + static_cast<std::int64_t>(next[i]) * line_bytes;
  return lines;
}

const void* chase(const void* start, std::int64_t loads) {
  const void* p = start;
  for (std::int64_t i = 0; i < loads; i += 8) {
    _Pragma("GCC unroll 8") for (int k = 0; k < 8; ++k) p = *static_cast<const void* const*>(p);
  }
  return p;
}

std::vector<LatencyPoint> measure_latency(const LatencyPlan& plan,
                                          const std::function<void(const std::string&)>& progress) {
  std::vector<LatencyPoint> points;
  PinnedTeam one(first_cpus(1));
  auto measure_size = [&](std::int64_t bytes, bool huge) {
    MappedBuffer buffer(static_cast<std::size_t>(bytes), huge ? PageRequest::huge : PageRequest::small);
    const std::int64_t lines = build_chase(buffer.data(), bytes, plan.line_bytes,
                                           0x5eed0000u + static_cast<std::uint64_t>(bytes));
    const void* position = buffer.data();
    auto seconds_for = [&](std::int64_t loads) {
      return one.run([&](int) { position = chase(position, loads); });
    };
    if (bytes <= plan.warm_up_below) seconds_for(lines);  // bring every line into the caches
    const std::int64_t loads = calibrate(seconds_for, plan.sample_s, 1024);
    LatencyPoint point;
    point.bytes = bytes;
    point.huge_pages = huge;
    point.huge_page_fraction = buffer.huge_page_fraction();
    point.ns = measure([&] { return seconds_for(loads) / static_cast<double>(loads) * 1e9; },
                       plan.policy);
    points.push_back(point);
  };
  if (progress) progress("latency, 2 MiB pages");
  for (std::int64_t bytes : plan.sizes) measure_size(bytes, true);
  if (progress && !plan.small_page_sizes.empty()) progress("latency, 4 KiB pages");
  for (std::int64_t bytes : plan.small_page_sizes) measure_size(bytes, false);
  return points;
}

}  // namespace ridge::probe::detail
