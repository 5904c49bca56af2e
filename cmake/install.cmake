# `cmake --install`: the public headers, libridge.so, the CMake package (find_package(ridge) giving
# ridge::ridge) and ridge.pc. Only the shared library is installed: ridge_core exposes internals
# for the tests and tools, and the tools and tests themselves stay in the build tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(RIDGE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ridge)

install(TARGETS ridge EXPORT ridgeTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ridge DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")

install(EXPORT ridgeTargets NAMESPACE ridge:: DESTINATION ${RIDGE_CMAKE_DIR})
configure_package_config_file(cmake/ridgeConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/ridgeConfig.cmake INSTALL_DESTINATION ${RIDGE_CMAKE_DIR})
# The same rule as the SONAME (libridge.so.0): any 0.x at or above the version asked for.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ridgeConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ridgeConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/ridgeConfigVersion.cmake DESTINATION ${RIDGE_CMAKE_DIR})

# ridge.pc names the prefix absolutely, and `cmake --install --prefix DIR` may choose the prefix
# after configuring, so the file is written when installing, from the prefix in force then.
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(RIDGE_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(RIDGE_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(RIDGE_PC_FILE ${CMAKE_CURRENT_BINARY_DIR}/ridge.pc)
install(CODE "
  set(RIDGE_PC_LIBDIR [[${RIDGE_PC_LIBDIR}]])
  set(RIDGE_PC_INCLUDEDIR [[${RIDGE_PC_INCLUDEDIR}]])
  set(PROJECT_VERSION ${PROJECT_VERSION})
  configure_file([[${PROJECT_SOURCE_DIR}/cmake/ridge.pc.in]] [[${RIDGE_PC_FILE}]] @ONLY)")
install(FILES ${RIDGE_PC_FILE} DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
