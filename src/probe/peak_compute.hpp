// Peak compute: every (ISA, type) loop this CPU can run, on one and on all CPUs.
#pragma once

#include <vector>

#include "probe/sampling.hpp"
#include "ridge/probe.hpp"

namespace ridge::probe::detail {

std::vector<PeakResult> measure_peaks(const SamplingPolicy& policy, double sample_s);

// The core clock in GHz from a chain of dependent integer adds (one per cycle on every current
// core), on the first CPU of the affinity mask.
Figure measure_clock_ghz(const SamplingPolicy& policy, double sample_s);

}  // namespace ridge::probe::detail
