// The matrix-vector kernels of one ISA, instantiated over its traits: included by each ISA's
// translation unit (kernels/isa_*.cpp).
#pragma once

#include "kernels/column_sweep.hpp"
#include "kernels/dot.hpp"
#include "kernels/tile_shapes.hpp"
#include "kernels/vector_kernels.hpp"

namespace ridge::kernels {

template <class V, TileShape Shape>
VectorKernels<typename V::scalar> make_vector_kernels() {
  return {V::width, &Dot<V, Shape.dot_rows, Shape.dot_columns>::run, &ColumnSweep<V>::run};
}

}  // namespace ridge::kernels
