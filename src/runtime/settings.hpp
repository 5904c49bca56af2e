// Run-time settings from the environment (RIDGE_NUM_THREADS, OMP_NUM_THREADS, RIDGE_ISA,
// RIDGE_VERBOSE), read once, overridable through the C++ and C APIs.
#pragma once

#include <string>

namespace ridge::runtime {

// Threads a call may use: set_num_threads() if called, else RIDGE_NUM_THREADS, else the first
// entry of OMP_NUM_THREADS, else the CPUs in the affinity mask. Always >= 1.
int max_threads();

// RIDGE_ISA as given ("" when unset).
const std::string& isa_request();

// RIDGE_VERBOSE=1: the library logs its choices (dispatch, blocking) to stderr, never stdout.
bool verbose();

// Parses a positive thread count; 0 if `text` is not one.
int parse_thread_count(const char* text);

}  // namespace ridge::runtime
