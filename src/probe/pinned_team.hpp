// A team of threads, each pinned to one CPU, that start a job together: the probe's way of
// running one measurement on 1 .. all CPUs without creating threads inside the timed region.
#pragma once

#include <barrier>
#include <functional>
#include <thread>
#include <vector>

namespace ridge::probe::detail {

class PinnedTeam {
 public:
  // Member 0 is the calling thread, pinned to cpus[0] while the team lives; member i > 0 is a
  // new thread pinned to cpus[i].
  explicit PinnedTeam(const std::vector<int>& cpus);
  ~PinnedTeam();
  PinnedTeam(const PinnedTeam&) = delete;
  PinnedTeam& operator=(const PinnedTeam&) = delete;

  int size() const { return static_cast<int>(starts_.size()); }
  // Runs job(member) on every member at once; returns the seconds from the first member's start
  // to the last member's finish (so a late starter lowers the rate, never raises it).
  double run(const std::function<void(int member)>& job);

 private:
  void worker(int member, int cpu);

  std::vector<double> starts_, ends_;
  std::barrier<> start_, finish_;
  const std::function<void(int)>* job_ = nullptr;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
  cpu_set_t caller_affinity_{};
  bool restore_affinity_ = false;
};

// The first `threads` CPUs of this process's affinity mask.
std::vector<int> first_cpus(int threads);

}  // namespace ridge::probe::detail
