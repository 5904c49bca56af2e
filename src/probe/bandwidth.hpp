// Bandwidth sweep: the five kernels over working-set sizes and thread counts, and the plateau of
// each memory level read off the curve.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "probe/sampling.hpp"
#include "ridge/isa.hpp"
#include "ridge/probe.hpp"

namespace ridge::probe::detail {

struct BandwidthPlan {
  std::vector<std::int64_t> sizes;  // working set per thread, bytes
  // With t threads the sweep stops at the first size whose total (size x t) reaches this, so
  // more threads do not need more memory.
  std::int64_t largest_total = 0;
  std::vector<int> thread_counts;
  // The kernels to run, by BandwidthPoint::kernel name; empty: all five.
  std::vector<std::string> kernels;
  SamplingPolicy policy;
  double sample_s = 0.01;
};

struct BandwidthSweep {
  Isa isa = Isa::generic;  // whose kernels ran (the fastest candidate, see bandwidth.cpp)
  std::vector<BandwidthPoint> points;
};

BandwidthSweep measure_bandwidth(const BandwidthPlan& plan,
                                 const std::function<void(const std::string&)>& progress);

// A memory level as the plateau finder sees it.
struct LevelWindow {
  std::string name;         // "l1", "l2", "l3", "dram"
  double capacity = 0;      // bytes (effective where measured); dram: the least size of each array
  bool shared = false;      // shared by the threads: compare the total working set, not per thread
};

// The plateau of each level: the median over curve points well inside it, i.e. whose working
// set lies in [1.5 x previous capacity, 0.75 x capacity]; DRAM: where each of the kernel's arrays
// (all threads together) is at least the capacity field, STREAM's rule of 4 x the last-level
// cache per array. A level with no point inside is left out.
std::vector<BandwidthPlateau> bandwidth_plateaus(const std::vector<BandwidthPoint>& points,
                                                 const std::vector<LevelWindow>& levels);

// The working-set sizes of the sweep: `per_octave` points per doubling, from `first` to `last`
// (both included), multiples of 512 bytes.
std::vector<std::int64_t> sweep_sizes(std::int64_t first, std::int64_t last, int per_octave);

}  // namespace ridge::probe::detail
