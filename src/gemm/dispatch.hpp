// The dispatch table: for the active ISA, the kernels and block sizes of each element type.
#pragma once

#include "gemm/kernel_set.hpp"
#include "ridge/isa.hpp"

namespace ridge::gemm_detail {

template <class T>
struct TypedKernels {
  KernelSet<T> kernels;
  BlockSizes blocks;
};

struct DispatchTable {
  Isa isa = Isa::generic;
  TypedKernels<float> f32;
  TypedKernels<double> f64;

  template <class T>
  const TypedKernels<T>& get() const {
    if constexpr (sizeof(T) == 4) {
      return f32;
    } else {
      return f64;
    }
  }
};

// The table for the active ISA; filled on first use (thread-safe), switched by set_isa().
const DispatchTable& dispatch();
// The table of a given supported ISA.
const DispatchTable& dispatch_for(Isa isa);

}  // namespace ridge::gemm_detail
