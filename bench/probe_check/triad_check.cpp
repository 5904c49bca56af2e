// Independent check of `ridge probe`'s DRAM triad bandwidth, STREAM-style: a[j] = b[j] + s * c[j]
// over three arrays of 4 x the L3 each (sysfs, or the argument), split into one contiguous
// chunk per pinned thread, first touched by its thread. Bytes counted as STREAM does: 24 per
// element (the write-allocate read of a is not counted). Usage: probe_check_triad [threads]
// [runs] [l3_bytes]. Prints the median GB/s.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "check_threads.hpp"

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 1;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 10;
  // sysconf(_SC_LEVEL3_CACHE_SIZE) said 320 MiB on the 32 MiB Zen 4 VM: read the kernel's view.
  long l3 = 0;
  if (argc > 3) {
    l3 = std::atol(argv[3]);
  } else if (std::ifstream size("/sys/devices/system/cpu/cpu0/cache/index3/size"); size >> l3) {
    l3 <<= 10;  // "32768K"
  }
  if (l3 <= 0) l3 = 32L << 20;
  const long n = 4 * l3 / 8;
  double* a = static_cast<double*>(std::aligned_alloc(64, n * 8));
  double* b = static_cast<double*>(std::aligned_alloc(64, n * 8));
  double* c = static_cast<double*>(std::aligned_alloc(64, n * 8));
  auto chunk = [&](int t, long& begin, long& end) {
    begin = n * t / threads;
    end = n * (t + 1) / threads;
  };
  probe_check::timed_parallel(threads, [&](int t) {
    long begin, end;
    chunk(t, begin, end);
    for (long j = begin; j < end; ++j) a[j] = 0, b[j] = 1, c[j] = 2;
  });
  const double scalar = 3.0;
  std::vector<double> rates;
  for (int r = 0; r <= runs; ++r) {
    const double s = probe_check::timed_parallel(threads, [&](int t) {
      long begin, end;
      chunk(t, begin, end);
      for (long j = begin; j < end; ++j) a[j] = b[j] + scalar * c[j];
    });
    if (r > 0) rates.push_back(24.0 * static_cast<double>(n) / s * 1e-9);  // run 0 warms up
  }
  if (a[n / 2] != 7.0) {
    std::fprintf(stderr, "triad_check: wrong result %g\n", a[n / 2]);
    return 1;
  }
  std::printf("triad_check threads=%d array_mib=%ld gbs_median=%.2f min=%.2f max=%.2f\n", threads,
              n * 8 >> 20, probe_check::median(rates), *std::min_element(rates.begin(), rates.end()),
              *std::max_element(rates.begin(), rates.end()));
  std::free(a);
  std::free(b);
  std::free(c);
  return 0;
}
