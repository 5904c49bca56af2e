// Run-time settings from the environment (RIDGE_NUM_THREADS, OMP_NUM_THREADS, RIDGE_ISA,
// RIDGE_AVX_VNNI, RIDGE_VERBOSE), read once, overridable through the C++ and C APIs where they
// say so.
#pragma once

#include <string>

namespace ridge::runtime {

// Threads a call may use: set_num_threads() if called, else RIDGE_NUM_THREADS, else the first
// entry of OMP_NUM_THREADS, else the CPUs in the affinity mask. Always >= 1.
int max_threads();

// RIDGE_ISA as given ("" when unset).
const std::string& isa_request();

// False under RIDGE_AVX_VNNI=0: the int8 GEMM on the AVX2 path then keeps to AVX2's int16 pairs
// where the CPU has AVX-VNNI, to test or compare that path there (the caller checks the CPU).
bool avx_vnni_allowed();

// RIDGE_VERBOSE=1: the library logs its choices (dispatch, blocking) to stderr, never stdout.
bool verbose();

// Parses a positive thread count; 0 if `text` is not one.
int parse_thread_count(const char* text);

}  // namespace ridge::runtime
