// Coherence and memory-ordering costs: core-to-core cache-line round trips, false sharing, and
// atomic increments and fences with and without contention.
#pragma once

#include "probe/sampling.hpp"
#include "ridge/probe.hpp"

namespace ridge::probe::detail {

CoherenceResult measure_coherence(const SamplingPolicy& policy, double sample_s);

}  // namespace ridge::probe::detail
