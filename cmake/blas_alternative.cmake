# libblas.so.3 backed by ridge, for Debian's libblas.so.3 alternative: programs linked against the
# system BLAS (numpy among them) then run ridge's routines, and every other BLAS routine from a
# complete BLAS, RIDGE_BLAS_FALLBACK (found: OpenBLAS, else BLIS; it must not itself be named
# libblas.so.3). Built into ${CMAKE_BINARY_DIR}/blas-alternative and installed to
# ${CMAKE_INSTALL_LIBDIR}/ridge-blas, as Debian installs each BLAS in its own directory; the
# README shows the update-alternatives line. Its RUNPATH names libridge.so.0's directory
# absolutely: the alternative reaches it through a symbolic link in another directory, where
# $ORIGIN would point.
set(RIDGE_ARCH_LIBDIR /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE})
find_library(RIDGE_BLAS_FALLBACK NAMES libopenblas.so.0 libblis.so.4
  PATHS ${RIDGE_ARCH_LIBDIR}/openblas-pthread ${RIDGE_ARCH_LIBDIR}/openblas-openmp
    ${RIDGE_ARCH_LIBDIR}/blis-pthread ${RIDGE_ARCH_LIBDIR}/blis-openmp
  NO_DEFAULT_PATH
  DOC "A complete BLAS for the routines ridge lacks, behind ridge's libblas.so.3")
if(NOT RIDGE_BLAS_FALLBACK OR RIDGE_SANITIZE)
  message(STATUS "ridge's libblas.so.3 is not built (no OpenBLAS or BLIS to complete it)")
  return()
endif()

add_library(ridge_blas_alternative SHARED src/blas/alternative/libblas_alternative.cpp)
target_compile_options(ridge_blas_alternative PRIVATE ${RIDGE_WARNINGS})
target_compile_definitions(ridge_blas_alternative
  PRIVATE RIDGE_BLAS_FALLBACK="${RIDGE_BLAS_FALLBACK}")
# --no-as-needed: the library uses no symbol of either, and the DT_NEEDED entries, in this
# order, are its whole purpose.
target_link_libraries(ridge_blas_alternative PRIVATE
  -Wl,--no-as-needed ridge ${RIDGE_BLAS_FALLBACK} -Wl,--as-needed)
get_filename_component(RIDGE_BLAS_FALLBACK_DIR ${RIDGE_BLAS_FALLBACK} DIRECTORY)
set_target_properties(ridge_blas_alternative PROPERTIES
  OUTPUT_NAME blas SOVERSION 3 CXX_VISIBILITY_PRESET hidden
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/blas-alternative
  INSTALL_RPATH "${CMAKE_INSTALL_FULL_LIBDIR};${RIDGE_BLAS_FALLBACK_DIR}")
install(TARGETS ridge_blas_alternative LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/ridge-blas
  NAMELINK_SKIP)
