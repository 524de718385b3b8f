# Installation: headers, libmpgpu, the `mpgpu` CLI, a CMake package
# (find_package(mpgpu) -> mpgpu::mpgpu) and a pkg-config file (mpgpu.pc).
#
#   cmake --install build --prefix /opt/mpgpu
#
# Layout under the prefix (GNUInstallDirs):
#   include/mpgpu/**                    public headers (.hpp host API, .cuh device API, .h and
#                                       .inc the CGBN drop-in under compat/)
#   <libdir>/libmpgpu.so.0.1.0          the library; CUDA runtime linked statically inside it
#   bin/mpgpu                           the CLI (finds the library through $ORIGIN rpath)
#   <libdir>/cmake/mpgpu/               mpgpuConfig.cmake, version file, targets, FindGMP.cmake
#   <libdir>/pkgconfig/mpgpu.pc
#   share/doc/mpgpu/LICENSE             the license (Apache-2.0)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MPGPU_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/mpgpu"
    CACHE STRING "Where mpgpuConfig.cmake goes, relative to the prefix")
mark_as_advanced(MPGPU_INSTALL_CMAKEDIR)

get_target_property(_mpgpu_type mpgpu TYPE)
if(_mpgpu_type STREQUAL "SHARED_LIBRARY")
  set(MPGPU_SHARED ON)
else()
  set(MPGPU_SHARED OFF)
endif()

# ABI changes with every 0.x minor release: libmpgpu.so.0.1 -> libmpgpu.so.0.1.0.
set_target_properties(mpgpu PROPERTIES
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})

# The installed CLI finds the installed library relative to itself, so a
# prefix can be moved or used without LD_LIBRARY_PATH.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(_mpgpu_cli_rpath "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH _mpgpu_bin_to_lib "/prefix/${CMAKE_INSTALL_BINDIR}"
       "/prefix/${CMAKE_INSTALL_LIBDIR}")
  set(_mpgpu_cli_rpath "$ORIGIN/${_mpgpu_bin_to_lib}")
endif()
if(TARGET mpgpu_cli)
  set_target_properties(mpgpu_cli PROPERTIES INSTALL_RPATH "${_mpgpu_cli_rpath}")
endif()

# ---- targets and headers ---------------------------------------------------------
install(TARGETS mpgpu EXPORT mpgpuTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET mpgpu_cli)
  install(TARGETS mpgpu_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# Every kind of file that include/ holds: the install test checks that each
# file under include/mpgpu lands in the prefix, so a new kind fails CI.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/mpgpu
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh" PATTERN "*.h" PATTERN "*.inc")
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})

# ---- CMake package -----------------------------------------------------------------
# The shared library keeps CUDA::cudart_static PRIVATE, so the exported
# mpgpu::mpgpu names only GMP::GMP. A static library must also hand cudart to
# its consumers ($<LINK_ONLY:CUDA::cudart_static>), so then the config looks
# for the CUDA toolkit as well.
if(NOT MPGPU_SHARED AND MPGPU_HAVE_CUDA)
  set(MPGPU_CONFIG_NEEDS_CUDATOOLKIT ON)
else()
  set(MPGPU_CONFIG_NEEDS_CUDATOOLKIT OFF)
endif()

install(EXPORT mpgpuTargets
  NAMESPACE mpgpu::
  FILE mpgpuTargets.cmake
  DESTINATION ${MPGPU_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/mpgpuConfig.cmake.in
  ${PROJECT_BINARY_DIR}/mpgpuConfig.cmake
  INSTALL_DESTINATION ${MPGPU_INSTALL_CMAKEDIR})
# 0.x: only the same minor release promises the same API and ABI.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/mpgpuConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/mpgpuConfig.cmake
  ${PROJECT_BINARY_DIR}/mpgpuConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/FindGMP.cmake
  DESTINATION ${MPGPU_INSTALL_CMAKEDIR})

# ---- pkg-config -----------------------------------------------------------------------
# GMP's -I/-L only when GMP is outside the compiler's default paths.
set(MPGPU_PC_CFLAGS_EXTRA "")
set(MPGPU_PC_LIBS_EXTRA "")
if(GMP_INCLUDE_DIR AND NOT GMP_INCLUDE_DIR IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
  string(APPEND MPGPU_PC_CFLAGS_EXTRA " -I${GMP_INCLUDE_DIR}")
endif()
if(GMP_LIBRARY)
  get_filename_component(_mpgpu_gmp_libdir "${GMP_LIBRARY}" DIRECTORY)
  if(NOT _mpgpu_gmp_libdir IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
    string(APPEND MPGPU_PC_LIBS_EXTRA " -L${_mpgpu_gmp_libdir}")
  endif()
endif()
string(APPEND MPGPU_PC_LIBS_EXTRA " -lgmp")
# A static libmpgpu carries no cudart or cuBLAS of its own: its users link them.
if(MPGPU_CONFIG_NEEDS_CUDATOOLKIT)
  string(APPEND MPGPU_PC_LIBS_EXTRA " -L${CUDAToolkit_LIBRARY_DIR} -lcublas -lcudart_static -ldl -lrt -lpthread")
endif()

# mpgpu.pc is written at install time so that its prefix is the one given to
# `cmake --install --prefix`, not the one the build was configured with.
install(CODE "
  set(_mpgpu_pc_prefix \"\${CMAKE_INSTALL_PREFIX}\")
  foreach(_d libdir:${CMAKE_INSTALL_LIBDIR} includedir:${CMAKE_INSTALL_INCLUDEDIR})
    string(REPLACE \":\" \";\" _kv \"\${_d}\")
    list(GET _kv 0 _k)
    list(GET _kv 1 _v)
    if(IS_ABSOLUTE \"\${_v}\")
      set(_mpgpu_pc_\${_k} \"\${_v}\")
    else()
      set(_mpgpu_pc_\${_k} \"\\\${prefix}/\${_v}\")
    endif()
  endforeach()
  set(MPGPU_PC_PREFIX \"\${_mpgpu_pc_prefix}\")
  set(MPGPU_PC_LIBDIR \"\${_mpgpu_pc_libdir}\")
  set(MPGPU_PC_INCLUDEDIR \"\${_mpgpu_pc_includedir}\")
  set(MPGPU_PC_VERSION \"${PROJECT_VERSION}\")
  set(MPGPU_PC_CFLAGS_EXTRA \"${MPGPU_PC_CFLAGS_EXTRA}\")
  set(MPGPU_PC_LIBS_EXTRA \"${MPGPU_PC_LIBS_EXTRA}\")
  configure_file(\"${PROJECT_SOURCE_DIR}/cmake/mpgpu.pc.in\"
                 \"${PROJECT_BINARY_DIR}/mpgpu.pc\" @ONLY)
")
install(FILES ${PROJECT_BINARY_DIR}/mpgpu.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
