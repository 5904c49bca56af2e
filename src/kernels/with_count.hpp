// A count known only at run time as a template argument, for loops whose registers it sizes
// (the sums of each column of x in a sweep, the accumulators of each column of a dot tile).
#pragma once

#include <cstdint>
#include <utility>

namespace ridge::kernels {

// f.template operator()<N>() for N = count, 1 to Max; nothing for a count outside them.
template <int Max, class F>
void with_count(std::int64_t count, F&& f) {
  [&]<int... I>(std::integer_sequence<int, I...>) {
    ((count == I + 1 ? (f.template operator()<I + 1>(), 0) : 0), ...);
  }
  (std::make_integer_sequence<int, Max>{});
}

}  // namespace ridge::kernels
