// The thread pool and the thread-count settings.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

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

// Callers on 2, 3 and 4 threads at once take turns with the team: every call's tasks still run
// concurrently, one per thread (task 1 meets task 0 at a rendezvous that a call run task after
// task on one thread would never reach), and every call completes.
TEST(ThreadPool, ConcurrentCallersEachGetTheWholeTeam) {
  for (int callers : {2, 3, 4}) {
    std::atomic<int> calls{0}, alone{0};
    std::vector<std::thread> threads;
    for (int c = 0; c < callers; ++c)
      threads.emplace_back([&] {
        for (int job = 0; job < 100; ++job) {
          std::atomic<bool> started{false}, met{false};
          std::thread::id ids[2];
          runtime::parallel_run(2, [&](int task) {
            ids[task] = std::this_thread::get_id();
            if (task == 0) {
              started = true;
              return;
            }
            // Task 1 waits (bounded) for task 0: both are running at once.
            for (int spin = 0; spin < 1'000'000 && !started; ++spin) std::this_thread::yield();
            met = started.load();
          });
          if (!met || ids[0] == ids[1]) alone++;
          calls++;
        }
      });
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(calls.load(), callers * 100);
    EXPECT_EQ(alone.load(), 0) << callers << " callers: calls ran without the team";
  }
}

// An exception in any task reaches the caller once every task has ended, and the pool goes on.
TEST(ThreadPool, TaskExceptionsReachTheCaller) {
  for (int thrower : {0, 1}) {
    std::atomic<int> finished{0};
    EXPECT_THROW(runtime::parallel_run(2,
                                       [&](int task) {
                                         if (task == thrower) throw std::runtime_error("task");
                                         finished++;
                                       }),
                 std::runtime_error);
    EXPECT_EQ(finished.load(), 1);
  }
  std::atomic<int> ran{0};
  runtime::parallel_run(2, [&](int) { ran++; });
  EXPECT_EQ(ran.load(), 2);
}

// Independent tasks: each runs exactly once, on whichever thread claims it, task 0 on the
// caller; jobs of both kinds in a row never run a task of one job in another (a late worker
// claims only its own job's tasks).
TEST(ThreadPool, IndependentTasksRunOnceEach) {
  for (int count : {1, 2, 3, 5}) {
    for (int job = 0; job < 500; ++job) {
      std::vector<std::atomic<int>> runs(count);
      std::thread::id first;
      const auto task = [&](int t) {
        if (t == 0) first = std::this_thread::get_id();
        runs[t]++;
      };
      if (job % 2 == 0) {
        runtime::parallel_run_independent(count, task);
      } else {
        runtime::parallel_run(count, task);
      }
      for (int t = 0; t < count; ++t)
        ASSERT_EQ(runs[t].load(), 1) << count << " tasks, job " << job;
      ASSERT_EQ(first, std::this_thread::get_id());
    }
  }
}

// An independent task's exception reaches the caller whichever thread ran it, and every other
// task still runs.
TEST(ThreadPool, IndependentTaskExceptionsReachTheCaller) {
  for (int thrower : {0, 1, 2}) {
    std::atomic<int> finished{0};
    EXPECT_THROW(runtime::parallel_run_independent(3,
                                                   [&](int task) {
                                                     if (task == thrower)
                                                       throw std::runtime_error("task");
                                                     finished++;
                                                   }),
                 std::runtime_error);
    EXPECT_EQ(finished.load(), 2);
  }
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
