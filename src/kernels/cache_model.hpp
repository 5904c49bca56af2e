// What the kernels and drivers assume of this machine's data caches, read from ridge::Machine:
// the L1's geometry (which addresses collide in one set) and how much of L2 and L3 a stream of
// reads keeps (the capacity `ridge probe --save` measured where it has, else the reported size).
#pragma once

#include <cstdint>

#include "ridge/machine.hpp"

namespace ridge::kernels {

struct CacheModel {
  // L1 data cache geometry, for telling when columns of an unpacked operand fall into one set.
  std::int64_t l1_line = 64, l1_sets = 64, l1_ways = 8;
  // log2 of l1_line and of l1_sets where a power of two (every x86 and Arm L1 so far), else -1:
  // l1_lines_per_set then takes no division. Its gcd and divisions were 3 ns of a 16^3 sgemm
  // call's 104 (AVX2 path, 2-vCPU Xeon guest).
  int l1_line_log2 = 6, l1_sets_log2 = 6;
  // Bytes of L2 and of L3 that streaming reads keep; operands larger than l3_streamed come from
  // DRAM. Without an L3 it is L2's figure.
  std::int64_t l2_streamed = 0, l3_streamed = 0;
  // The page-strided read streams one core keeps fed (Machine::measured_page_streams; 0 where
  // the probe has not measured them).
  int page_streams = 0;

  std::int64_t l1_bytes() const { return l1_line * l1_sets * l1_ways; }

  static CacheModel of(const Machine& machine);
  // Of Machine::current(), computed once.
  static const CacheModel& current();
};

// The bytes of a cache level that a stream of reads can use: the probe's bandwidth-curve
// capacity, else its latency-curve one, else the reported size. The hardware prefetchers hide
// latency for a stream, so the first can exceed the second.
std::int64_t streamed_capacity(const CacheLevel& cache);

// Whether a kernel that reads `bytes` of an operand once, in order, should fetch ahead of itself
// (the dot and GEMV kernels): only past what L3 keeps, when the operand streams from DRAM and
// the hardware prefetchers alone leave the memory system idle part of the time. From the caches
// the extra instructions only cost.
// Measured (cache_model.cpp): the line lies at half the capacity.
inline bool streams_from_memory(std::int64_t bytes, const CacheModel& caches) {
  return bytes > caches.l3_streamed / 2;
}

// Whether such a kernel fetches ahead in software: its next group of columns (GEMV's column
// sweep, 8 at a time) or the next tile's rows (the dot kernel) are asked for while the current
// ones stream in, so as many streams again are in flight. That pays on a core that keeps many
// page-strided streams fed and costs on one that keeps few, where the hardware prefetchers
// alone already fill what it has (cache_model.cpp). `stream_prefetch` is the tuned choice
// (GemmTuning: 1 fetch ahead, 2 not, 0 this rule).
inline constexpr int kFetchAheadStreams = 16;
inline bool fetches_ahead(std::int64_t bytes, const CacheModel& caches, int stream_prefetch) {
  if (!streams_from_memory(bytes, caches)) return false;
  if (stream_prefetch != 0) return stream_prefetch == 1;
  return caches.page_streams == 0 || caches.page_streams >= kFetchAheadStreams;
}

// The most lines of one L1 set that `columns` columns of an unpacked operand occupy at one depth
// step, when consecutive columns lie `stride_bytes` apart. A stride that is a multiple of the L1
// way size (sets x line) maps every column to the same set.
std::int64_t l1_lines_per_set(std::int64_t stride_bytes, std::int64_t columns,
                              const CacheModel& caches);

}  // namespace ridge::kernels
