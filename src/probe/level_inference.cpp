// Step finding on a measured curve: optimal piecewise-constant fit in log space (dynamic
// programming over split points), then the size where the curve crosses each step.
#include "probe/level_inference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridge::probe::detail {
namespace {

struct Segment {
  std::size_t first = 0, last = 0;  // inclusive
  double level = 0;
};

double median_value(const std::vector<CurvePoint>& c, std::size_t first, std::size_t last) {
  std::vector<double> v;
  for (std::size_t i = first; i <= last; ++i) v.push_back(c[i].value);
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Least-squares split of y[0..n) into at most k segments of >= 2 points.
std::vector<Segment> fit_segments(const std::vector<CurvePoint>& c, int k) {
  const std::size_t n = c.size();
  std::vector<double> sum(n + 1, 0), sum_sq(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const double y = std::log(c[i].value);
    sum[i + 1] = sum[i] + y;
    sum_sq[i + 1] = sum_sq[i] + y * y;
  }
  // Squared error of points [a, b) around their mean.
  auto cost = [&](std::size_t a, std::size_t b) {
    const double s = sum[b] - sum[a], m = static_cast<double>(b - a);
    return sum_sq[b] - sum_sq[a] - s * s / m;
  };
  const double inf = std::numeric_limits<double>::infinity();
  const auto segments = static_cast<std::size_t>(std::max(1, std::min<int>(k, static_cast<int>(n / 2))));
  // best[s][j]: least error of the first j points in s segments; cut[s][j]: where the last began.
  std::vector<std::vector<double>> best(segments + 1, std::vector<double>(n + 1, inf));
  std::vector<std::vector<std::size_t>> cut(segments + 1, std::vector<std::size_t>(n + 1, 0));
  best[0][0] = 0;
  for (std::size_t s = 1; s <= segments; ++s)
    for (std::size_t j = 2 * s; j <= n; ++j)
      for (std::size_t i = 2 * (s - 1); i + 2 <= j; ++i) {
        if (best[s - 1][i] == inf) continue;
        const double e = best[s - 1][i] + cost(i, j);
        if (e < best[s][j]) {
          best[s][j] = e;
          cut[s][j] = i;
        }
      }
  std::size_t used = 1;
  for (std::size_t s = 1; s <= segments; ++s)
    if (best[s][n] < best[used][n]) used = s;
  std::vector<Segment> out(used);
  std::size_t end = n;
  for (std::size_t s = used; s >= 1; --s) {
    const std::size_t begin = cut[s][end];
    out[s - 1] = {begin, end - 1, median_value(c, begin, end - 1)};
    end = begin;
  }
  return out;
}

// Log-size where the curve first rises to `threshold` within [first, last] and stays there for
// the next point too (one noisy point is not a step).
double crossing(const std::vector<CurvePoint>& c, std::size_t first, std::size_t last,
                double threshold) {
  for (std::size_t j = std::max<std::size_t>(first, 1); j <= last; ++j) {
    const bool above = c[j].value >= threshold && (j == last || c[j + 1].value >= threshold);
    if (!above) continue;
    const double y0 = std::log(c[j - 1].value), y1 = std::log(c[j].value);
    const double x0 = std::log(c[j - 1].bytes), x1 = std::log(c[j].bytes);
    const double t = y1 > y0 ? std::clamp((std::log(threshold) - y0) / (y1 - y0), 0.0, 1.0) : 1.0;
    return std::exp(x0 + t * (x1 - x0));
  }
  return c[last].bytes;
}

}  // namespace

std::vector<LevelStep> infer_steps(std::vector<CurvePoint> curve, int max_plateaus) {
  std::erase_if(curve, [](const CurvePoint& p) { return !(p.value > 0) || !(p.bytes > 0); });
  std::sort(curve.begin(), curve.end(),
            [](const CurvePoint& a, const CurvePoint& b) { return a.bytes < b.bytes; });
  if (curve.size() < 4) return {};
  std::vector<Segment> segments = fit_segments(curve, max_plateaus);
  // Merge neighbours that are not a real step up (noise, or a split inside one plateau).
  constexpr double kMinStep = 1.3;
  for (std::size_t i = 0; i + 1 < segments.size();) {
    if (segments[i + 1].level < kMinStep * segments[i].level) {
      segments[i].last = segments[i + 1].last;
      segments[i].level = median_value(curve, segments[i].first, segments[i].last);
      segments.erase(segments.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      i = i > 0 ? i - 1 : 0;
    } else {
      ++i;
    }
  }
  std::vector<LevelStep> steps;
  for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
    const double below = segments[i].level, above = segments[i + 1].level;
    const double threshold = below + kStepFraction * (above - below);
    steps.push_back({crossing(curve, segments[i].first, segments[i + 1].last, threshold), below,
                     above});
  }
  return steps;
}

}  // namespace ridge::probe::detail
