// The activation kernels of one ISA, instantiated over its float traits: included by each ISA's
// translation unit (isa_*.cpp).
#pragma once

#include <cstdint>

#include "kernels/activation_kernels.hpp"
#include "kernels/activation_math.hpp"

namespace ridge::kernels {

template <class V, typename V::reg (*F)(typename V::reg)>
void activation_array(const float* x, float* y, std::int64_t n) {
  std::int64_t i = 0;
  for (; i + V::width <= n; i += V::width) V::store(y + i, F(V::load(x + i)));
  if (i < n) {
    const int lanes = static_cast<int>(n - i);
    V::store_partial(y + i, F(V::load_partial(x + i, lanes)), lanes);
  }
}

template <class V>
ActivationKernel make_activation_kernel(Activation f) {
  using M = ActivationMath<V>;
  switch (f) {
    case Activation::relu:
      return &activation_array<V, &M::relu>;
    case Activation::gelu_tanh:
      return &activation_array<V, &M::gelu_tanh>;
    case Activation::gelu_erf:
      return &activation_array<V, &M::gelu_erf>;
    case Activation::silu:
      return &activation_array<V, &M::silu>;
  }
  return nullptr;
}

}  // namespace ridge::kernels
