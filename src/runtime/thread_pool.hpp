// The one persistent pool of worker threads behind every multithreaded kernel.
#pragma once

#include <functional>

namespace ridge::detail {

// Runs task(0) .. task(count - 1) concurrently: task 0 on the calling thread, the others on
// persistent workers (created on first need, never per call). Returns when all have finished.
//
// Tasks must be independent (no barriers between them): when the pool cannot give `count`
// threads without oversubscribing -- another user thread is using it, or the caller is itself a
// pool task (a GEMM inside a task) -- the tasks run one after another on the caller instead.
// Safe after fork(): the child starts with a fresh, empty pool.
void parallel_run(int count, const std::function<void(int task)>& task);

// True while the current thread is running a pool task (used to avoid nested parallelism).
bool inside_pool_task();

}  // namespace ridge::detail
