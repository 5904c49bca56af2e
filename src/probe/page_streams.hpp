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
// The same at kKeptShare of the best: the streams the memory system still keeps fed, if not at
// full rate. Where the rate falls off a cliff the two counts are close (the Xeon guest: 32 and 48
// streams); where it slopes they part (the Zen 5 host: 8 to 24 at nine tenths, 32 to 64 at seven,
// its rate at 32 streams 0.74-0.86 of the best in five runs; the Zen 3 host: 8 and 8, 0.67 at
// 16 and 0.57 at 32). The skinny GEMM slices then go deeper (gemm/dispatch.cpp, skinny_depth).
inline constexpr double kKeptShare = 0.7;
int sustained_page_streams(const std::vector<PageStreamPoint>& points,
                           double share = kSustainedShare);

}  // namespace ridge::probe::detail
