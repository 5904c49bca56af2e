// The cache model the kernels size themselves by, from ridge::Machine.
#include "kernels/cache_model.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

namespace ridge::kernels {

std::int64_t streamed_capacity(const CacheLevel& cache) {
  if (cache.streaming_bytes > 0) return cache.streaming_bytes;
  if (cache.measured_bytes > 0) return cache.measured_bytes;
  return cache.size_bytes;
}

CacheModel CacheModel::of(const Machine& machine) {
  const CacheLevel l1 = machine.data_cache(1);
  const CacheLevel l2 = machine.data_cache(2);
  CacheLevel l3 = machine.data_cache(3);
  if (l3.size_bytes == 0) l3 = l2;
  CacheModel model;
  model.l1_line = l1.line_bytes > 0 ? l1.line_bytes : 64;
  model.l1_ways = l1.associativity > 0 ? l1.associativity : 8;
  model.l1_sets = std::max<std::int64_t>(1, l1.size_bytes / (model.l1_ways * model.l1_line));
  const auto log2_or_none = [](std::int64_t x) {
    return std::has_single_bit(static_cast<std::uint64_t>(x))
               ? std::countr_zero(static_cast<std::uint64_t>(x))
               : -1;
  };
  model.l1_line_log2 = log2_or_none(model.l1_line);
  model.l1_sets_log2 = log2_or_none(model.l1_sets);
  model.l2_streamed = streamed_capacity(l2);
  model.l3_streamed = streamed_capacity(l3);
  model.page_streams = machine.measured_page_streams;
  return model;
}

const CacheModel& CacheModel::current() {
  static const CacheModel model = of(Machine::current());
  return model;
}

// Measured, sgemv on 1 thread, ridge with and without fetching ahead, alternated with OpenBLAS,
// on a 2-vCPU Zen 4 VM whose L3 streams about 8.8 MiB as `ridge probe` measures it (CPUID
// reports 32 MiB): A from L3 (1024 x 1024, 4 MiB) ran at 0.79x of OpenBLAS fetching ahead and
// 0.94-0.97x without; at 8 and 16 MiB the two were within the noise; at 32 and 64 MiB fetching
// ahead was 10-70% faster (A x: 34-36 against 20-26 GB/s at 32 MiB, 27 against 21-22 at
// 64 MiB). So the line is drawn at half the capacity, which put it between 4 and 32 MiB there
// whether or not the probe's measurement had been saved (streams_from_memory).
//
// Fetching ahead then (fetches_ahead) depends on the core. Measured, 4096 x 4096 sgemv
// column-major A x, 1 thread, the column sweep with and without fetching the next 8 columns,
// alternated with BLIS, GB/s: Zen 4 1.03-1.20x faster with (column_sweep.hpp); the Xeon guest
// (probe: 32 page-strided streams; dgemv row-major A^T x, 16384 x 4096) 0.91-0.95 of BLIS with,
// 0.89-0.91 without; the Zen 3 host (probe: 8 streams) 16.3-16.8 with, 25.7-26.3 without (BLIS
// 24.2-24.5), and still 18 against 19-22 with the columns 16 and 64 bytes past a page apart, so
// not their sharing an L1 set. The dot kernel there (3 rows, row-major A x at 4096 x 4096 and
// 16384 x 4096): 0.87 / 0.97 of BLIS with, 0.95 / 1.00 without.

std::int64_t l1_lines_per_set(std::int64_t stride_bytes, std::int64_t columns,
                              const CacheModel& caches) {
  if (columns <= 1) return columns;
  // A stride that is not a whole number of lines moves each column to a new offset within its
  // line, so the columns spread over sets; take them as one line per set.
  if (caches.l1_line_log2 >= 0 && caches.l1_sets_log2 >= 0) {
    // The same by shifts: gcd(x, 2^s) = 2^min(trailing zeros of x, s).
    if ((stride_bytes & (caches.l1_line - 1)) != 0) return 1;
    const auto stride_lines = static_cast<std::uint64_t>(stride_bytes >> caches.l1_line_log2);
    const int touched_log2 =
        caches.l1_sets_log2 - std::min(std::countr_zero(stride_lines), caches.l1_sets_log2);
    return (columns + (std::int64_t{1} << touched_log2) - 1) >> touched_log2;
  }
  if (stride_bytes % caches.l1_line != 0) return 1;
  const std::int64_t stride_lines = stride_bytes / caches.l1_line;
  const std::int64_t sets_touched = caches.l1_sets / std::gcd(stride_lines, caches.l1_sets);
  return (columns + sets_touched - 1) / sets_touched;
}

}  // namespace ridge::kernels
