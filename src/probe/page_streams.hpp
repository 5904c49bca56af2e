// Page-strided streams: how many a core's memory system keeps fed at once. The direct GEMM path
// reads a skinny product's A in place one column per depth step, each column a page or more from
// the next; past some number of such streams per tile the rate collapses (a limit on outstanding
// misses and tracked streams, not a capacity), and that number bounds the path's depth slices.
#pragma once

#include <vector>

#include "probe/sampling.hpp"
#include "ridge/probe.hpp"

namespace ridge::probe::detail {

// The stream counts the probe reads at.
std::vector<int> page_stream_counts();

// One core (the calling thread) reading a 64 MiB matrix of 16 KiB columns (a 4096 x 4096 f32
// weight) a slice of `streams` columns at a time: one line of each column in turn, down the
// slice, each line fetched 8 steps ahead, as the direct path's one-line tiles do.
std::vector<PageStreamPoint> measure_page_streams(const SamplingPolicy& policy);

// The most streams read, with every smaller count, at no less than kSustainedShare of the best
// rate of the smaller counts; 0 when no point was measured. A tight share keeps the slices clear
// of the cliff's edge, where the GEMM tile already loses: on the 2-vCPU Xeon guest the probe read
// 40 and 48 streams at 0.87 and 0.77 of its best, the skinny tile ran 40- and 48-deep slices at
// 0.91 and 0.77 of its.
inline constexpr double kSustainedShare = 0.9;
int sustained_page_streams(const std::vector<PageStreamPoint>& points);

}  // namespace ridge::probe::detail
