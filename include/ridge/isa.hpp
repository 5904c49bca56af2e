// Which instruction-set path the kernels run, chosen once from the CPU and overridable.
#pragma once

#include "ridge/export.hpp"

namespace ridge {

enum class Isa { generic, avx2, avx512 };

// "generic", "avx2", "avx512".
RIDGE_API const char* isa_name(Isa isa);
// True if this CPU (and OS) can run the path.
RIDGE_API bool isa_supported(Isa isa);
// The fastest supported path.
RIDGE_API Isa best_isa();
// The path in use: RIDGE_ISA if set and supported, else best_isa(), unless set_isa was called.
RIDGE_API Isa active_isa();
// Forces a path for all later calls; throws std::invalid_argument if the CPU lacks it.
RIDGE_API void set_isa(Isa isa);

// Threads the kernels may use (RIDGE_NUM_THREADS, else OMP_NUM_THREADS, else the CPUs in the
// affinity mask); set_num_threads(n <= 0) returns to that default.
RIDGE_API int num_threads();
RIDGE_API void set_num_threads(int threads);

}  // namespace ridge
