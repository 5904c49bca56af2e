// Each ISA's GEMM micro-tile: MV vector registers of rows of C by NR columns (the register budget
// behind each is argued in gemm/isa_*.cpp). Attention's tiles run on the same micro-kernel with
// the same shape (attention/tile_*.cpp), so both read it here.
#pragma once

namespace ridge::gemm_detail {

struct MicroTileShape {
  int mv, nr;
};

inline constexpr MicroTileShape kGenericMicroTile{2, 6};
inline constexpr MicroTileShape kAvx2MicroTile{2, 6};
inline constexpr MicroTileShape kAvx512MicroTile{2, 12};

}  // namespace ridge::gemm_detail
