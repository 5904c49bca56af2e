// The GEMM kernels and block sizes of each ISA path and element type, built on first use.
#pragma once

#include "gemm/blocking.hpp"
#include "gemm/kernel_set.hpp"
#include "kernels/cache_model.hpp"
#include "ridge/isa.hpp"
#include "runtime/per_isa.hpp"

namespace ridge::gemm_detail {

// With the cache model the driver reads too, so that a call makes one lookup.
template <class T>
struct TypedKernels {
  GemmKernels<T> kernels;
  BlockSizes blocks;
  kernels::CacheModel caches;
};

// Builds the table of a supported ISA (dispatch.cpp).
template <class T>
TypedKernels<T> make_gemm_kernels(Isa isa);

// Each ISA's table, built on first use; constant-initialized, so the lookup inlines to a load.
template <class T>
inline runtime::PerIsa<TypedKernels<T>> g_gemm_kernels{&make_gemm_kernels<T>};

// The table of a supported ISA (the caller checks: building a table runs the ISA's code).
template <class T>
const TypedKernels<T>& gemm_kernels(Isa isa) {
  return g_gemm_kernels<T>(isa);
}

}  // namespace ridge::gemm_detail
