// The GEMM driver on the internal problem form: picks the path (matrix-vector, dot, direct or
// packed; for bf16 and int8 operands the packed path or a one-column kernel) and the threads,
// reserves the workspace, and splits C between the threads.
#pragma once

#include <cstdint>

#include "kernels/problem.hpp"
#include "ridge/isa.hpp"

namespace ridge::gemm_detail {

// Runs p (C column-major, any M, N, K >= 0, validated) on the active ISA. Reserves its
// workspace before it writes C: std::bad_alloc leaves C untouched.
template <class T>
void run(const kernels::GemmProblem<T>& p);

extern template void run<float>(const kernels::GemmProblem<float>&);
extern template void run<double>(const kernels::GemmProblem<double>&);

// A packed beforehand (PackedMatrix): its rows in panels of the ISA's MR rows over the whole
// depth, as Loops::prepacked reads them (GemmKernels::pack_panels).
struct PrepackedA {
  const void* panels = nullptr;
  std::int64_t rs = 1, cs = 1;  // the strides of the A it was packed from
  Isa isa = Isa::generic;       // the path whose kernels packed it, and run its products
};

// p (with p.a unused) on such an A: bit-identical to run() on the A it was packed from, on that
// ISA path.
template <class T>
void run_prepacked(const kernels::GemmProblem<T>& p, const PrepackedA& a);

extern template void run_prepacked<float>(const kernels::GemmProblem<float>&, const PrepackedA&);
extern template void run_prepacked<double>(const kernels::GemmProblem<double>&,
                                           const PrepackedA&);

// The same for bf16 operands (their bit patterns), computed in float.
void run(const kernels::GemmProblem<float, std::uint16_t, std::uint16_t>& p);
// And on an A packed beforehand (p.a unused): bit-identical to run() on the A it was packed
// from, on that ISA path.
void run_prepacked(const kernels::GemmProblem<float, std::uint16_t, std::uint16_t>& p,
                   const PrepackedA& a);

// C = (A - a_zero)(B - b_zero) for int8 operands (A int8, B uint8 or int8), exact in int32
// (modulo 2^32 past it); alpha and beta must be 1 and 0. An epilogue dequantises each sum to a
// float in its place (kernels::Epilogue::scale).
template <class SourceB>
void run(const kernels::GemmProblem<std::int32_t, std::int8_t, SourceB>& p);

extern template void run(const kernels::GemmProblem<std::int32_t, std::int8_t, std::uint8_t>&);
extern template void run(const kernels::GemmProblem<std::int32_t, std::int8_t, std::int8_t>&);

// The same on an A packed beforehand (p.a unused; for int16 pairs packed less p.a_zero, which
// the product then takes as given).
template <class SourceB>
void run_prepacked(const kernels::GemmProblem<std::int32_t, std::int8_t, SourceB>& p,
                   const PrepackedA& a);

extern template void run_prepacked(
    const kernels::GemmProblem<std::int32_t, std::int8_t, std::uint8_t>&, const PrepackedA&);
extern template void run_prepacked(
    const kernels::GemmProblem<std::int32_t, std::int8_t, std::int8_t>&, const PrepackedA&);

}  // namespace ridge::gemm_detail
