// Timing subnormal results (see subnormal_speed.hpp).
#include "runtime/subnormal_speed.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>

#include "runtime/settings.hpp"

namespace ridge::runtime {
namespace {

// Each product made, in its place between the clock readings (not folded, moved or
// vectorised away).
inline void keep_in_register(float& v) {
#if defined(__x86_64__)
  asm volatile("" : "+x"(v));
#elif defined(__aarch64__)
  asm volatile("" : "+w"(v));
#else
  static_cast<void>(v);
#endif
}

volatile float factor_source = 0.999f;
volatile float product_sink;

// Seconds for 8 chains of 512 multiplications each by a factor just below 1, from `start`: the
// products stay normal from 1 and subnormal (rounded, as an activation's are) from 2^-128. The
// factor is read through a volatile, so that no multiplication is folded away.
double seconds_of_products(float start) {
  const float factor = factor_source;
  float x[8];
  for (int i = 0; i < 8; ++i) x[i] = start * (1.0f + 0.125f * static_cast<float>(i));
  const auto t0 = std::chrono::steady_clock::now();
  for (int step = 0; step < 512; ++step) {
    for (float& v : x) {
      v *= factor;
      keep_in_register(v);
    }
  }
  const auto t1 = std::chrono::steady_clock::now();
  float sum = 0;
  for (const float v : x) sum += v;
  product_sink = sum;  // the products are used
  return std::chrono::duration<double>(t1 - t0).count();
}

}  // namespace

bool subnormals_at_full_speed(double normal_seconds, double subnormal_seconds) {
  return subnormal_seconds <= 2 * normal_seconds;
}

bool subnormals_at_full_speed() {
  static const bool at_full_speed = [] {
    double normal = std::numeric_limits<double>::infinity(), subnormal = normal;
    for (int round = 0; round < 5; ++round) {  // alternated, the best of each
      normal = std::min(normal, seconds_of_products(1.0f));
      subnormal = std::min(subnormal, seconds_of_products(0x1p-128f));
    }
    const bool free = subnormals_at_full_speed(normal, subnormal);
    if (verbose())
      std::fprintf(stderr,
                   "ridge: subnormal results %s (scalar products %.2fx the time of normal "
                   "ones): the activations %s\n",
                   free ? "take no assist" : "take assists", subnormal / normal,
                   free ? "scale in one step where they can" : "build them from their bits");
    return free;
  }();
  return at_full_speed;
}

}  // namespace ridge::runtime
