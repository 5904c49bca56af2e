// Pinned threads that run a timed job together.
#include "probe/pinned_team.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>

#include "probe/sampling.hpp"
#include "ridge/machine.hpp"

namespace ridge::probe::detail {
namespace {

void pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

}  // namespace

std::vector<int> first_cpus(int threads) {
  const std::vector<int>& cpus = Machine::current().cpu_ids;
  const auto count = static_cast<std::size_t>(std::clamp(threads, 1, static_cast<int>(cpus.size())));
  return {cpus.begin(), cpus.begin() + static_cast<std::ptrdiff_t>(count)};
}

PinnedTeam::PinnedTeam(const std::vector<int>& cpus)
    : starts_(cpus.size()),
      ends_(cpus.size()),
      start_(static_cast<std::ptrdiff_t>(cpus.size())),
      finish_(static_cast<std::ptrdiff_t>(cpus.size())) {
  restore_affinity_ =
      pthread_getaffinity_np(pthread_self(), sizeof(caller_affinity_), &caller_affinity_) == 0;
  pin_to(cpus[0]);
  for (std::size_t i = 1; i < cpus.size(); ++i)
    threads_.emplace_back(&PinnedTeam::worker, this, static_cast<int>(i), cpus[i]);
}

PinnedTeam::~PinnedTeam() {
  stopping_ = true;
  start_.arrive_and_wait();
  for (std::thread& t : threads_) t.join();
  if (restore_affinity_)
    pthread_setaffinity_np(pthread_self(), sizeof(caller_affinity_), &caller_affinity_);
}

void PinnedTeam::worker(int member, int cpu) {
  pin_to(cpu);
  for (;;) {
    start_.arrive_and_wait();
    if (stopping_) return;
    starts_[member] = now_seconds();
    (*job_)(member);
    ends_[member] = now_seconds();
    finish_.arrive_and_wait();
  }
}

double PinnedTeam::run(const std::function<void(int member)>& job) {
  job_ = &job;
  start_.arrive_and_wait();
  starts_[0] = now_seconds();
  job(0);
  ends_[0] = now_seconds();
  finish_.arrive_and_wait();
  return *std::max_element(ends_.begin(), ends_.end()) -
         *std::min_element(starts_.begin(), starts_.end());
}

}  // namespace ridge::probe::detail
