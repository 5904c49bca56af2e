// What each ISA's translation unit provides for one element type: the dispatch table's entries.
#pragma once

#include "gemm/problem.hpp"
#include "gemv/problem.hpp"

namespace ridge::gemm_detail {

template <class T>
struct KernelSet {
  const char* isa = nullptr;
  int mr = 0;  // micro-tile rows (a multiple of the vector width)
  int nr = 0;  // micro-tile columns
  int width = 0;  // elements per vector
  // The five-loop algorithm with packed A and B, on the calling thread.
  void (*packed)(const Problem<T>&, const BlockSizes&) = nullptr;
  // The same micro-kernel with A read in place when it is column-contiguous (else packed one
  // MR-row slab at a time) and B in place unless pack_b, kc of the depth at a time: for small
  // and skinny problems. narrow: B fits in L1 (narrower tiles, see Loops::direct).
  void (*direct)(const Problem<T>&, std::int64_t kc, bool pack_b, bool narrow) = nullptr;
  // Dot products along the depth, for an A with contiguous rows and a B with contiguous columns
  // (gemm/dot.hpp): skinny products with B transposed in row-major storage.
  // prefetch: the operand streams from memory, and the kernel fetches ahead (gemm/dot.hpp).
  void (*dot)(const Problem<T>&, bool prefetch) = nullptr;
  // GEMV y = alpha * A x + beta * y, A column-major (gemv/column_sweep.hpp), for a validated
  // problem with m, n >= 1 and alpha != 0; prefetch as for dot.
  void (*gemv_columns)(const gemv_detail::Problem<T>&, bool prefetch) = nullptr;
};

// One function per ISA and type, each defined in its own translation unit (isa_*.cpp).
KernelSet<float> generic_kernels_f32();
KernelSet<double> generic_kernels_f64();
KernelSet<float> avx2_kernels_f32();
KernelSet<double> avx2_kernels_f64();
KernelSet<float> avx512_kernels_f32();
KernelSet<double> avx512_kernels_f64();

}  // namespace ridge::gemm_detail
