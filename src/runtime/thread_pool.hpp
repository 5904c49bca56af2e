// The one persistent pool of worker threads behind every multithreaded kernel.
#pragma once

#include <functional>

namespace ridge::runtime {

// Runs task(0) .. task(count - 1) concurrently, each on its own thread: task 0 on the calling
// thread, the others on persistent workers (created on first need, never per call). Returns when
// all have finished; an exception thrown by a task is rethrown here once every task has ended.
//
// Several threads calling at once take turns in the order they arrived, each call with the whole
// team: a call waits while the calls before it run (their threads are busy), then runs at full
// width. So calls never oversubscribe the CPUs and never silently lose their threads. A call
// from inside a pool task (a kernel inside a task) runs its tasks one after another on that
// task's thread instead, so tasks must not wait for each other. Safe after fork(): the child
// starts with a fresh, empty pool.
void parallel_run(int count, const std::function<void(int task)>& task);

// As parallel_run, for tasks that never wait for one another: once the caller is done with task
// 0 it takes, one at a time, the tasks no worker has started yet. A worker the OS has not put on
// a CPU (another process, another library's threads spinning there) then delays the call by at
// most the tasks the caller could not take from it, and a call runs no slower than on one
// thread by more than the hand-off.
void parallel_run_independent(int count, const std::function<void(int task)>& task);

// True while the current thread is running a pool task (used to avoid nested parallelism).
bool inside_pool_task();

}  // namespace ridge::runtime
