// Where a measured curve (latency, or time per byte, against working-set size) steps from one
// memory level to the next: the effective capacity of each cache level.
#pragma once

#include <vector>

namespace ridge::probe::detail {

struct CurvePoint {
  double bytes = 0;
  double value = 0;  // rises with size: ns per load, or ns per byte
};

struct LevelStep {
  double capacity_bytes = 0;  // where the curve has risen a fifth of the way to the next plateau
  double below = 0;           // the plateau before the step (median of its points)
  double above = 0;           // and after
};

// Fits at most `max_plateaus` flat segments to log(value) by least squares (each of two points or
// more), merges neighbours that differ by less than 30%, and returns the steps between them in
// order of size. An empty result: the curve is flat.
std::vector<LevelStep> infer_steps(std::vector<CurvePoint> curve, int max_plateaus);

// The fraction of the way from one plateau to the next at which a step is placed. If a cache of
// C bytes evicts at random, a chase over s > C bytes misses with probability 1 - C/s, so the
// curve reaches this fraction at s = C / (1 - 0.2) = 1.25 C: close to C, yet far enough above
// the plateau's run-to-run noise (a few %) for steps of 1.3x or more.
inline constexpr double kStepFraction = 0.2;

}  // namespace ridge::probe::detail
