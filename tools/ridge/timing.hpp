// Benchmark timing helpers: a monotonic clock, medians and spreads, pinning.
#pragma once

#include <vector>

namespace ridge::cli {

double now_seconds();

struct Summary {
  double median = 0;
  double min = 0;
  double max = 0;
  // (max - min) / median: how much the runs disagreed.
  double spread() const { return median > 0 ? (max - min) / median : 0; }
};
Summary summarize(std::vector<double> values);

// Pins the calling thread to one CPU (for single-threaded measurements).
void pin_current_thread(int cpu);

}  // namespace ridge::cli
