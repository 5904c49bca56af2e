// Independent check of `ridge probe`'s fp32 FMA peak: 16 accumulators of 512-bit float vectors
// (GCC vector extensions, built with -march=native -ffp-contract=fast so each a * x + y is one
// FMA), on N pinned threads. Usage: probe_check_fma [threads] [runs]. Prints the median GFLOP/s.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check_threads.hpp"

typedef float v16f __attribute__((vector_size(64)));

static float fma_loop(long iterations) {
  constexpr int kAcc = 16;
  v16f acc[kAcc];
  const v16f zero = {};
  const v16f x = zero + 0.999999f, y = zero + 1e-7f;  // acc -> y / (1 - x): stays finite
  for (int a = 0; a < kAcc; ++a) acc[a] = zero + static_cast<float>(a);
  for (long i = 0; i < iterations; ++i)
#pragma GCC unroll 16
    for (int a = 0; a < kAcc; ++a) acc[a] = acc[a] * x + y;
  v16f sum = acc[0];
  for (int a = 1; a < kAcc; ++a) sum += acc[a];
  return sum[0] + sum[15];
}

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 1;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 11;
  const long iterations = 4'000'000;  // ~20 ms at 3.6 GHz and one 512-bit FMA per cycle
  const double flop_per_thread = 2.0 * 16 * 16 * static_cast<double>(iterations);
  std::vector<double> rates;
  volatile float sink = 0;
  for (int r = 0; r <= runs; ++r) {
    const double s = probe_check::timed_parallel(threads, [&](int) { sink = fma_loop(iterations); });
    if (r > 0) rates.push_back(flop_per_thread * threads / s * 1e-9);  // run 0 warms up
  }
  std::printf("fma_check threads=%d gflops_median=%.2f min=%.2f max=%.2f\n", threads,
              probe_check::median(rates), *std::min_element(rates.begin(), rates.end()),
              *std::max_element(rates.begin(), rates.end()));
  return 0;
}
