# Per-ISA code: each instruction-set path's translation units form one object library compiled
# with that ISA's flags. A unit compiled with these flags must only run after run-time dispatch
# has checked that the CPU (and the OS, via XGETBV) supports the ISA, so nothing it compiles may
# be shared with another path (src/simd/isa_unit.hpp): GCC builds these units with
# -fwhole-program, which gives every function and template instantiation in them internal
# linkage except the entry points marked RIDGE_ISA_ENTRY. tests/isa/check_isa_symbols.sh checks
# the built objects.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set(RIDGE_X86 ON)
  set(RIDGE_AVX2_FLAGS -mavx2 -mfma)
  set(RIDGE_AVX2_VNNI_FLAGS ${RIDGE_AVX2_FLAGS} -mavxvnni)
  set(RIDGE_AVX512_FLAGS -mavx512f -mavx512bw -mavx512dq -mavx512vl -mavx2 -mfma
      -mprefer-vector-width=512)
  set(RIDGE_AVX512_BF16_FLAGS ${RIDGE_AVX512_FLAGS} -mavx512bf16 -mavx512vnni)
  set(RIDGE_AVX512_VNNI_FLAGS ${RIDGE_AVX512_FLAGS} -mavx512vnni)
  set(RIDGE_AVX512_AMX_FLAGS ${RIDGE_AVX512_BF16_FLAGS} -mamx-tile -mamx-bf16 -mamx-int8)
else()
  set(RIDGE_X86 OFF)
endif()
set(RIDGE_GENERIC_FLAGS "")
# Every loop of the kernels starts on a 64-byte line, so where a k loop lands does not follow
# unrelated code around it: sgemm 16^3 and 32^3 through the AVX2 micro-kernel ran 6-9% slower
# (Zen 3, paired runs) from one build to the next with loops 32-byte aligned, and within 1-2% of
# the earlier build with this flag.
set(RIDGE_ISA_CODE_FLAGS -falign-loops=64)
# Under the sanitizers these units' stack variables are not checked for use after their scope:
# that instrumentation of the unrolled tiles took most of the sanitizer build (GCC 12,
# gemm/isa_generic.cpp with ASan and UBSan: 846 s, 132 s without it; with only the variable
# tracking of -g turned off instead, 517 s). Their reads and writes of buffers stay checked, and
# the rest of the library keeps the check.
if(RIDGE_SANITIZE)
  list(APPEND RIDGE_ISA_CODE_FLAGS -fno-sanitize-address-use-after-scope)
endif()
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  set(RIDGE_ISA_LINKAGE_FLAGS -fwhole-program)
else()
  set(RIDGE_ISA_LINKAGE_FLAGS "")
  message(WARNING "ridge: per-ISA units keep external linkage with ${CMAKE_CXX_COMPILER_ID}; "
                  "the ISA symbol test will show what the linker could share between paths")
endif()

# The ISA paths built here, in order, and their object libraries (ridge_isa_<isa>).
set(RIDGE_ISAS generic)
if(RIDGE_X86)
  list(APPEND RIDGE_ISAS avx2 avx2_vnni avx512 avx512_bf16 avx512_vnni avx512_amx)
endif()

# ridge_isa_library(<isa> <source>...): the object library of one ISA path's units.
function(ridge_isa_library isa)
  string(TOUPPER "${isa}" upper)
  add_library(ridge_isa_${isa} OBJECT ${ARGN})
  target_compile_options(ridge_isa_${isa} PRIVATE ${RIDGE_WARNINGS} ${RIDGE_${upper}_FLAGS}
    ${RIDGE_ISA_CODE_FLAGS} ${RIDGE_ISA_LINKAGE_FLAGS})
  target_include_directories(ridge_isa_${isa} PRIVATE ${PROJECT_SOURCE_DIR}/include
    ${PROJECT_SOURCE_DIR}/src)
  target_compile_definitions(ridge_isa_${isa} PRIVATE RIDGE_BUILDING_LIBRARY)
  set_target_properties(ridge_isa_${isa} PROPERTIES CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
endfunction()
