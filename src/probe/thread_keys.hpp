// How the probe's JSON and saved file key a figure by its thread count: one convention for peaks
// and bandwidths.
#pragma once

#include <string>
#include <vector>

namespace ridge::probe::detail {

// "1" for one thread and "all" for every CPU of the affinity mask (both on a one-CPU machine); a
// count in between (the full probe's sweep on a machine with more than two CPUs) as its number.
inline std::vector<std::string> thread_keys(int threads, int cpus) {
  std::vector<std::string> keys;
  if (threads == 1) keys.push_back("1");
  if (threads == cpus) keys.push_back("all");
  if (keys.empty()) keys.push_back(std::to_string(threads));
  return keys;
}

}  // namespace ridge::probe::detail
