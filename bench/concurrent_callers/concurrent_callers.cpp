// Several threads calling ridge::gemm at once, as a server's request threads or Python threads
// that release the GIL do: the aggregate rate and each call's latency, for 1 .. N callers. With
// ridge's rule (callers take turns with the whole team, src/runtime/thread_pool.hpp) the
// aggregate stays at the team's rate and a call waits for the calls before it.
//   ridge_concurrent_callers SIZE CALLS CALLERS...   (e.g. 1024 20 1 2 4)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "ridge/ridge.hpp"

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s SIZE CALLS CALLERS...\n", argv[0]);
    return 2;
  }
  const std::int64_t n = std::atoll(argv[1]);
  const int calls = std::atoi(argv[2]);
  std::printf("sgemm %lld^3, %d calls per caller, %d threads per call\n",
              static_cast<long long>(n), calls, ridge::num_threads());
  std::printf("%8s %12s %14s %14s\n", "callers", "GFLOP/s", "median ms", "max ms");
  for (int arg = 3; arg < argc; ++arg) {
    const int callers = std::atoi(argv[arg]);
    std::vector<std::vector<float>> a(callers), b(callers), c(callers);
    for (int t = 0; t < callers; ++t) {
      a[t].assign(static_cast<std::size_t>(n * n), 1.0f / static_cast<float>(n));
      b[t].assign(a[t].size(), 0.5f);
      c[t].assign(a[t].size(), 0.0f);
    }
    const auto call = [&](int t) {
      ridge::gemm(1.0f, ridge::row_major<const float>(a[t].data(), n, n),
                  ridge::row_major<const float>(b[t].data(), n, n), 0.0f,
                  ridge::row_major(c[t].data(), n, n));
    };
    for (int t = 0; t < callers; ++t) call(t);  // warm-up: pool, workspaces, pages
    std::vector<std::vector<double>> latency(callers);
    std::vector<std::thread> threads;
    const double start = now();
    for (int t = 0; t < callers; ++t)
      threads.emplace_back([&, t] {
        for (int i = 0; i < calls; ++i) {
          const double t0 = now();
          call(t);
          latency[t].push_back(now() - t0);
        }
      });
    for (std::thread& thread : threads) thread.join();
    const double seconds = now() - start;
    std::vector<double> all;
    for (const auto& l : latency) all.insert(all.end(), l.begin(), l.end());
    std::sort(all.begin(), all.end());
    const double flop = 2.0 * n * n * n * callers * calls;
    std::printf("%8d %12.1f %14.2f %14.2f\n", callers, flop / seconds * 1e-9,
                1e3 * all[all.size() / 2], 1e3 * all.back());
  }
  return 0;
}
