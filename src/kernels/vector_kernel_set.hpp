// The matrix-vector kernels of one ISA, instantiated over its traits: included by each ISA's
// translation unit (kernels/isa_*.cpp).
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/column_sweep.hpp"
#include "kernels/dot.hpp"
#include "kernels/tile_shapes.hpp"
#include "kernels/vector_kernels.hpp"

namespace ridge::kernels {

// Rows of A per dot tile against a single column (GEMV's A^T x). With one column a row is
// only one accumulator, and the product is bound by reading A: the tile's rows, each a stream of
// its own, are the lines in flight. Six, on every ISA (the AVX-512 dot tile's rows). Measured on
// the Zen 3 host (AVX2, whose dot tile has 3 rows), row-major sgemv A x, alternated, GB/s at
// 4096 x 4096 / 16384 x 4096 on 1 thread: 3 rows 26.0 / 23.1, 4 rows - / 23.4, 6 rows 30.3 / 25.2,
// 8 rows 28.8 / 24.4 (OpenBLAS 28.2 / 23.7, BLIS 26.0 / 22.9); dgemv 3 rows 24.0 / 23.7, 6 rows
// 26.0 / 24.6; 2 threads, 16384 x 4096, 33.1 and 33.9.
inline constexpr int kVectorDotRows = 6;

template <class V, TileShape Shape>
VectorKernels<typename V::scalar> make_vector_kernels() {
  VectorKernels<typename V::scalar> k{V::width, &Dot<V, Shape.dot_rows, Shape.dot_columns>::run,
                                      &Dot<V, kVectorDotRows, 1>::run, &ColumnSweep<V>::run};
  k.column_sums = &ColumnSweep<V>::sum;
  k.column_finish = &ColumnSweep<V>::finish;
  if constexpr (std::is_same_v<typename V::scalar, float>) {
    k.column_sweep_bf16 = &ColumnSweep<V, std::uint16_t>::run;
    k.column_sums_bf16 = &ColumnSweep<V, std::uint16_t>::sum;
    k.dot_bf16 = &Dot<V, Shape.dot_rows, Shape.dot_columns, std::uint16_t>::run;
    k.vector_dot_bf16 = &Dot<V, kVectorDotRows, 1, std::uint16_t>::run;
  }
  return k;
}

}  // namespace ridge::kernels
