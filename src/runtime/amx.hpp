// Whether the kernels may use Intel AMX's tile registers in this process.
#pragma once

namespace ridge::runtime {

// True where the CPU has AMX-TILE, the OS saves the tiles' state (XCR0), Linux granted this
// process the tile data (arch_prctl ARCH_REQ_XCOMP_PERM, asked once: without it the first tile
// instruction faults), and RIDGE_AMX is not 0 (the caller checks AMX-BF16 or AMX-INT8).
// RIDGE_AMX=0 keeps the bf16 and int8 GEMMs on VDPBF16PS and VPDPBUSD, to test or compare those
// paths on a CPU with AMX.
bool amx_usable();

}  // namespace ridge::runtime
