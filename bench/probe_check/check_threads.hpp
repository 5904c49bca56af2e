// Shared by the two check programs: run a body on N threads pinned one per CPU, started together,
// and time them from the first start to the last finish. Deliberately independent of ridge's code.
#pragma once

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>

namespace probe_check {

inline std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof(set), &set);
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

inline void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

// Runs body(t) on `threads` pinned threads after a spin barrier; returns seconds.
inline double timed_parallel(int threads, const std::function<void(int)>& body) {
  const std::vector<int> cpus = allowed_cpus();
  std::atomic<int> ready{0};
  std::vector<std::chrono::steady_clock::time_point> start(threads), end(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      pin(cpus[static_cast<std::size_t>(t) % cpus.size()]);
      ready.fetch_add(1);
      while (ready.load() < threads) {
      }
      start[t] = std::chrono::steady_clock::now();
      body(t);
      end[t] = std::chrono::steady_clock::now();
    });
  for (auto& th : pool) th.join();
  return std::chrono::duration<double>(*std::max_element(end.begin(), end.end()) -
                                       *std::min_element(start.begin(), start.end()))
      .count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace probe_check
