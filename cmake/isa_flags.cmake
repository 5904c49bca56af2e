# Compiler flags for each instruction-set path. A source compiled with these flags must only run
# after run-time dispatch has checked that the CPU (and the OS, via XGETBV) supports the ISA.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set(RIDGE_X86 ON)
  set(RIDGE_AVX2_FLAGS -mavx2 -mfma)
  set(RIDGE_AVX512_FLAGS -mavx512f -mavx512bw -mavx512dq -mavx512vl -mavx2 -mfma
      -mprefer-vector-width=512)
  set(RIDGE_AVX512_BF16_FLAGS ${RIDGE_AVX512_FLAGS} -mavx512bf16 -mavx512vnni)
else()
  set(RIDGE_X86 OFF)
endif()

# ridge_isa_sources(<isa> <file>...): give per-ISA translation units their flags.
function(ridge_isa_sources isa)
  string(TOUPPER "${isa}" upper)
  set(flags ${RIDGE_${upper}_FLAGS})
  foreach(file IN LISTS ARGN)
    set_source_files_properties(${file} PROPERTIES COMPILE_OPTIONS "${flags}")
  endforeach()
endfunction()
