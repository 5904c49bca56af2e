// The GEMV driver: brings x and y to unit stride, picks the threads and runs the active ISA's
// kernel on each thread's part of y.
#pragma once

#include <cstdint>

#include "gemv/problem.hpp"

namespace ridge::gemv_detail {

// Runs p (validated, any m, n >= 0) with x and y strided: p.x and p.y point to element 0, and
// element i lies at x[i * incx], y[i * incy] (an increment may be negative, not zero).
template <class T>
void run(const Problem<T>& p, std::int64_t incx, std::int64_t incy);

extern template void run<float>(const Problem<float>&, std::int64_t, std::int64_t);
extern template void run<double>(const Problem<double>&, std::int64_t, std::int64_t);

}  // namespace ridge::gemv_detail
