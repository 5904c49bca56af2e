// Whether the kernels may use Intel AMX's tile registers in this process.
#pragma once

namespace ridge::runtime {

// True where the CPU has AMX-TILE and AMX-BF16, the OS saves their state (XCR0), Linux granted
// this process the tile data (arch_prctl ARCH_REQ_XCOMP_PERM, asked once: without it the first
// tile instruction faults), and RIDGE_AMX is not 0. RIDGE_AMX=0 keeps the bf16 GEMM on
// VDPBF16PS, to test or compare that path on a CPU with AMX.
bool amx_usable();

}  // namespace ridge::runtime
