// Per-ISA translation units. Each ISA's code is compiled with that ISA's flags
// (cmake/isa_flags.cmake) and must never run on a CPU without it, so nothing it compiles may be
// shared with another path: GCC compiles those units with -fwhole-program, which gives every
// function and template instantiation in them internal linkage (their own copies of std::fill_n,
// say, which the linker would otherwise merge with another unit's), except the entry points
// marked RIDGE_ISA_ENTRY. The entry points live in a namespace per ISA (ridge::generic,
// ridge::avx2, ridge::avx2_vnni, ridge::avx512, ridge::avx512_bf16, ridge::avx512_vnni,
// ridge::avx512_amx), are reached only through run-time dispatch, and
// tests/isa/check_isa_symbols.sh checks the built objects for anything else.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#define RIDGE_ISA_ENTRY __attribute__((externally_visible))
#else
#define RIDGE_ISA_ENTRY
#endif
