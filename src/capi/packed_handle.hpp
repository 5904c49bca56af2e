// The C API's opaque handle over ridge::PackedMatrix (ridge_packed_matrix in ridge.h).
#pragma once

#include "ridge/gemm.hpp"

struct ridge_packed_matrix {
  ridge::PackedMatrix matrix;
};
