// The thread pool and the thread-count settings.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "ridge/isa.hpp"
#include "runtime/settings.hpp"
#include "runtime/thread_pool.hpp"

namespace ridge::test {
namespace {

TEST(ThreadPool, RunsEveryTaskOnceOnDistinctThreads) {
  for (int count : {1, 2, 3, 5}) {
    std::vector<std::atomic<int>> runs(count);
    std::vector<std::thread::id> ids(count);
    runtime::parallel_run(count, [&](int task) {
      runs[task]++;
      ids[task] = std::this_thread::get_id();
    });
    for (int t = 0; t < count; ++t) EXPECT_EQ(runs[t].load(), 1);
    EXPECT_EQ(ids[0], std::this_thread::get_id());  // task 0 on the caller
    EXPECT_EQ(std::set<std::thread::id>(ids.begin(), ids.end()).size(),
              static_cast<std::size_t>(count));
  }
}

TEST(ThreadPool, ManyJobsInARow) {
  std::atomic<long> sum{0};
  for (int job = 0; job < 2000; ++job) runtime::parallel_run(2, [&](int task) { sum += task + 1; });
  EXPECT_EQ(sum.load(), 2000 * 3);
}

TEST(ThreadPool, NestedCallsRunInline) {
  std::atomic<int> inner{0};
  runtime::parallel_run(2, [&](int) {
    const auto outer_thread = std::this_thread::get_id();
    runtime::parallel_run(3, [&](int) {
      EXPECT_EQ(std::this_thread::get_id(), outer_thread);
      inner++;
    });
  });
  EXPECT_EQ(inner.load(), 6);
  EXPECT_FALSE(runtime::inside_pool_task());
}

TEST(ThreadPool, ConcurrentCallersAllComplete) {
  std::atomic<int> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&] {
      for (int job = 0; job < 200; ++job) runtime::parallel_run(2, [&](int) { total++; });
    });
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(total.load(), 4 * 200 * 2);
}

TEST(Settings, ParsesThreadCounts) {
  EXPECT_EQ(runtime::parse_thread_count("4"), 4);
  EXPECT_EQ(runtime::parse_thread_count("3,2"), 3);  // OMP_NUM_THREADS list: outer level
  EXPECT_EQ(runtime::parse_thread_count("0"), 0);
  EXPECT_EQ(runtime::parse_thread_count("-2"), 0);
  EXPECT_EQ(runtime::parse_thread_count("two"), 0);
  EXPECT_EQ(runtime::parse_thread_count(""), 0);
  EXPECT_EQ(runtime::parse_thread_count(nullptr), 0);
}

TEST(Settings, SetNumThreadsOverridesAndRestores) {
  const int initial = num_threads();
  set_num_threads(3);
  EXPECT_EQ(num_threads(), 3);
  set_num_threads(0);
  EXPECT_EQ(num_threads(), initial);
}

}  // namespace
}  // namespace ridge::test
