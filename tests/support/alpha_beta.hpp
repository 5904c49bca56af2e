// The alpha and beta a kernel sweep cycles through: the values the tiles treat specially (alpha 1
// with beta 0 or 1, whose multiplications they skip) and two general ones.
#pragma once

#include <utility>

namespace ridge::test {

// The pair for the index-th case of a sweep.
template <class T>
std::pair<T, T> alpha_beta(int index) {
  const T alphas[] = {T(1), T(1), T(-0.5), T(2)};
  const T betas[] = {T(0), T(1), T(0.5), T(0)};
  return {alphas[index % 4], betas[index % 4]};
}

}  // namespace ridge::test
