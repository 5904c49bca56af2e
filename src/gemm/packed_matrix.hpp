// What a ridge::PackedMatrix holds: its copy of B, in the internal problem's terms (a row-major
// C = op(A) B is solved as C^T = B^T op(A)^T, so B is the internal A, N rows x K deep).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "gemm/driver.hpp"
#include "ridge/gemm.hpp"

namespace ridge {

struct PackedMatrix::Storage {
  struct Free {
    void operator()(std::byte* p) const;
  };
  std::unique_ptr<std::byte[], Free> data;
  // Panels (gemm_detail::run_prepacked; data its panels), or, for a float or bf16 B^T with
  // contiguous rows, those rows copied K apart, on which products run as on B itself.
  bool panels = false;
  gemm_detail::PrepackedA prepacked;
  std::int8_t zero = 0;  // int8: the zero point of B's values
};

}  // namespace ridge
