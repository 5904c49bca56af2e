// Thread pool: callers queue for the team in arrival order (tickets), workers spin briefly after
// a job (back-to-back calls then start in well under a microsecond), then sleep on a futex
// (std::atomic::wait) so an idle pool costs no CPU. Task i runs on worker i, or (independent
// tasks) on whichever thread claims it first. Measured on the Zen 3 host, sgemm on 2 threads with
// another process spinning on the second CPU, against task i on worker i, alternated: 64^3 85 and
// 53 GFLOP/s (1 thread alone: 90), 128^3 89 and 82, 256^3 and 1000^3 level; with both CPUs free
// level (0.97-1.01).
#include "runtime/thread_pool.hpp"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <mutex>
#include <utility>
#include <thread>

namespace ridge::runtime {
namespace {

thread_local bool tls_inside_task = false;

// How long an idle worker keeps polling before it sleeps. Long enough to bridge the gap between
// consecutive GEMM calls in a loop, short enough not to steal a core from the user for long.
constexpr auto kSpinTime = std::chrono::microseconds(200);

class Pool {
 public:
  ~Pool() = delete;  // lives for the process (and is abandoned, not destroyed, in a fork child)

  // shared: the tasks are claimed (independent ones), else task i runs on worker i.
  void run(int count, const std::function<void(int)>& task, bool shared) {
    const Turn turn(*this);
    ensure_workers(count - 1);
    task_ = &task;
    remaining_.store(count - 1, std::memory_order_relaxed);
    // One word holds the job's generation, whether its tasks are claimed and its worker count,
    // so a worker never pairs one job's generation with another job's kind or count. Claimed
    // tasks count from 1 in a word of their own that carries the generation too, so a late
    // worker cannot claim another job's task.
    const std::uint64_t generation = (job_.load(std::memory_order_relaxed) >> 32) + 1;
    claim_.store(generation << 32 | 1, std::memory_order_relaxed);
    job_.store(generation << 32 | (shared ? kSharedBit : 0) |
               static_cast<std::uint32_t>(count - 1));
    if (sleepers_.load() > 0) job_.notify_all();

    std::exception_ptr error;
    tls_inside_task = true;
    try {
      task(0);
    } catch (...) {
      error = std::current_exception();
    }
    if (shared) {
      for (int t; (t = claim(generation, count)) > 0;) {
        try {
          task(t);
        } catch (...) {
          if (error == nullptr) error = std::current_exception();
        }
        remaining_.fetch_sub(1);
      }
    }
    tls_inside_task = false;

    // The workers hold a pointer to `task`: wait for them even when task 0 threw.
    wait_until([&] { return remaining_.load(std::memory_order_acquire) == 0; }, remaining_);
    task_ = nullptr;
    if (error == nullptr) error = std::exchange(worker_error_, nullptr);
    worker_error_ = nullptr;
    if (error != nullptr) std::rethrow_exception(error);
  }

  static void run_inline(int count, const std::function<void(int)>& task) {
    const bool was_inside = tls_inside_task;
    tls_inside_task = true;
    try {
      for (int t = 0; t < count; ++t) task(t);
    } catch (...) {
      tls_inside_task = was_inside;
      throw;
    }
    tls_inside_task = was_inside;
  }

 private:
  friend Pool* make_pool();
  Pool() = default;

  // A caller's turn with the team: taken in ticket order, handed on when the call ends.
  class Turn {
   public:
    explicit Turn(Pool& pool) : pool_(pool) {
      const std::uint64_t ticket = pool.next_ticket_.fetch_add(1);
      pool.wait_until([&] { return pool.serving_.load(std::memory_order_acquire) == ticket; },
                      pool.serving_);
    }
    ~Turn() {
      pool_.serving_.fetch_add(1);
      if (pool_.sleepers_.load() > 0) pool_.serving_.notify_all();
    }
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;

   private:
    Pool& pool_;
  };

  void ensure_workers(int needed) {
    while (workers_ < needed) {
      const int index = workers_ + 1;
      // The worker starts from the generation before the job about to be published, which it
      // may only see after that job is out.
      const std::uint64_t generation = job_.load() >> 32;
      std::thread([this, index, generation] { worker_loop(index, generation); }).detach();
      workers_ = index;  // only once the thread exists: creation may throw
    }
  }

  // Spins, then sleeps on `word` until done() holds. The publish side stores `word` and then
  // reads sleepers_; this side bumps sleepers_ and then re-reads `word` inside wait(). Both
  // sequentially consistent, so one of them always sees the other (no lost wake-up).
  template <class Done, class Word>
  void wait_until(Done done, std::atomic<Word>& word) {
    const auto spin_end = std::chrono::steady_clock::now() + kSpinTime;
    for (int i = 0; !done(); ++i) {
      // Yield while spinning: if the thread we wait for shares this CPU (the scheduler put it
      // there, or another library's threads crowd the others), it runs now rather than after
      // our whole spin. Measured: 128^3 sgemm on 2 threads beside oneDNN's OpenMP threads,
      // 16 GFLOP/s with a plain spin, ~190 with this one.
      std::this_thread::yield();
      if ((i & 15) == 0 && std::chrono::steady_clock::now() > spin_end) {
        while (!done()) {
          const Word seen = word.load(std::memory_order_acquire);
          if (done()) break;
          sleepers_.fetch_add(1);
          word.wait(seen);
          sleepers_.fetch_sub(1);
        }
        return;
      }
    }
  }

  // The next unclaimed task of job `generation` (count tasks), or 0 when none is left or the
  // job is over.
  int claim(std::uint64_t generation, int count) {
    std::uint64_t word = claim_.load(std::memory_order_acquire);
    for (;;) {
      const auto next = static_cast<int>(word & 0xffffffffu);
      if ((word >> 32) != generation || next >= count) return 0;
      if (claim_.compare_exchange_weak(word, word + 1)) return next;
    }
  }

  void run_task(int t) {
    try {
      (*task_)(t);
    } catch (...) {
      const std::lock_guard lock(error_mutex_);
      if (worker_error_ == nullptr) worker_error_ = std::current_exception();
    }
    if (remaining_.fetch_sub(1) == 1 && sleepers_.load() > 0) remaining_.notify_all();
  }

  void worker_loop(int index, std::uint64_t seen) {
    tls_inside_task = true;
    for (;;) {
      std::uint64_t job = 0;
      wait_until(
          [&] {
            job = job_.load(std::memory_order_acquire);
            return (job >> 32) != seen;
          },
          job_);
      seen = job >> 32;
      const int workers = static_cast<int>(job & kWorkersMask);
      if (index > workers) continue;
      if ((job & kSharedBit) == 0) {
        run_task(index);  // the job waits for this task, so task_ is still its
        continue;
      }
      // Likewise a claimed task: the job cannot end before it does.
      for (int t; (t = claim(seen, workers + 1)) > 0;) run_task(t);
    }
  }

  std::atomic<std::uint64_t> next_ticket_{0};  // the next caller's turn
  std::atomic<std::uint64_t> serving_{0};      // the turn that has the team
  int workers_ = 0;  // started so far, detached (a fork child starts a new pool)
  const std::function<void(int)>* task_ = nullptr;
  // generation << 32 | kSharedBit (the tasks are claimed) | workers taking part (1..count)
  static constexpr std::uint64_t kSharedBit = std::uint64_t{1} << 31;
  static constexpr std::uint64_t kWorkersMask = kSharedBit - 1;
  std::atomic<std::uint64_t> job_{0};
  std::atomic<std::uint64_t> claim_{0};  // generation << 32 | the next task to claim
  std::atomic<int> remaining_{0};
  std::atomic<int> sleepers_{0};
  std::mutex error_mutex_;
  std::exception_ptr worker_error_;  // the first exception a worker's task threw in this job
};

std::atomic<Pool*> g_pool{nullptr};
std::mutex g_pool_create_mutex;

Pool* make_pool() { return new Pool(); }

// In a fork child only the forking thread exists: drop the parent's pool (its workers are gone,
// a caller's turn may be held) and let the child build its own on first use.
void reset_pool_in_child() {
  g_pool.store(nullptr);
  new (&g_pool_create_mutex) std::mutex();
}

Pool& pool() {
  Pool* p = g_pool.load(std::memory_order_acquire);
  if (p != nullptr) return *p;
  std::lock_guard<std::mutex> lock(g_pool_create_mutex);
  p = g_pool.load(std::memory_order_acquire);
  if (p == nullptr) {
    static const int registered = pthread_atfork(nullptr, nullptr, reset_pool_in_child);
    (void)registered;
    p = make_pool();
    g_pool.store(p, std::memory_order_release);
  }
  return *p;
}

void run_tasks(int count, const std::function<void(int)>& task, bool shared) {
  if (count <= 0) return;
  if (count == 1 || tls_inside_task) {
    Pool::run_inline(count, task);
    return;
  }
  pool().run(count, task, shared);
}

}  // namespace

bool inside_pool_task() { return tls_inside_task; }

void parallel_run(int count, const std::function<void(int)>& task) {
  run_tasks(count, task, false);
}

void parallel_run_independent(int count, const std::function<void(int)>& task) {
  run_tasks(count, task, true);
}

}  // namespace ridge::runtime
