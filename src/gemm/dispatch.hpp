// The GEMM kernels and block sizes of each ISA path and element type, built on first use.
#pragma once

#include "gemm/blocking.hpp"
#include "gemm/kernel_set.hpp"
#include "kernels/cache_model.hpp"
#include "ridge/isa.hpp"

namespace ridge::gemm_detail {

// With the cache model the driver reads too, so that a call makes one lookup.
template <class T>
struct TypedKernels {
  GemmKernels<T> kernels;
  BlockSizes blocks;
  kernels::CacheModel caches;
};

// The table of a supported ISA (the caller checks: building a table runs the ISA's code).
template <class T>
const TypedKernels<T>& gemm_kernels(Isa isa);

}  // namespace ridge::gemm_detail
