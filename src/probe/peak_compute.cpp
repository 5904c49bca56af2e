// Peak FMA rate: the FMA chains on one pinned thread per CPU, timed together.
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "probe/fma_loop.hpp"
#include "ridge/machine.hpp"
#include "ridge/probe.hpp"

namespace ridge::probe {
namespace {

FmaLoops loops_for(Isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512: return avx512_fma_loops();
    case Isa::avx2: return avx2_fma_loops();
#endif
    default: return generic_fma_loops();
  }
}

void pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

}  // namespace

double fma_peak_gflops(FmaType type, int threads, Isa isa) {
  if (!isa_supported(isa))
    throw std::invalid_argument(std::string("ridge::probe: this CPU does not support ") +
                                isa_name(isa));
  const std::vector<int>& cpus = Machine::current().cpu_ids;
  threads = std::clamp(threads, 1, static_cast<int>(cpus.size()));
  const FmaLoops loops = loops_for(isa);
  const auto loop = type == FmaType::f32 ? loops.f32 : loops.f64;
  constexpr std::int64_t kIterations = 2'000'000;  // ~10 ms per run at 3.5 GHz
  constexpr int kRuns = 7;

  std::vector<double> rates;
  for (int run = 0; run <= kRuns; ++run) {
    std::vector<std::int64_t> flops(threads);
    std::vector<std::thread> workers;
    volatile double sink = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        pin_to(cpus[t]);
        flops[t] = loop(kIterations, &sink);
      });
    for (std::thread& w : workers) w.join();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::int64_t total = 0;
    for (std::int64_t f : flops) total += f;
    if (run > 0) rates.push_back(static_cast<double>(total) / seconds * 1e-9);  // run 0: warm-up
  }
  std::sort(rates.begin(), rates.end());
  return rates[rates.size() / 2];
}

}  // namespace ridge::probe
