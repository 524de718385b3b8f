# FindNCCL: NVIDIA's collective communication library, for work over several
# GPUs (docs/multi-gpu.md). Looks in MPGPU_NCCL_ROOT or NCCL_ROOT first (a
# folder with include/nccl.h and lib/libnccl.so*: a system prefix, or the
# nvidia/nccl folder of the nvidia-nccl-cu13 wheel, whose lib/ holds only
# libnccl.so.2), then in the system's folders. The header and the library
# come from the same folder when a root is given (NAMES_PER_DIR: a hinted
# libnccl.so.2 before a system libnccl.so).
#
# Sets NCCL_FOUND, NCCL_INCLUDE_DIR, NCCL_LIBRARY, NCCL_VERSION (from
# nccl.h) and the imported target NCCL::NCCL.
set(_nccl_hints ${MPGPU_NCCL_ROOT} $ENV{MPGPU_NCCL_ROOT} ${NCCL_ROOT} $ENV{NCCL_ROOT})
find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${_nccl_hints} PATH_SUFFIXES include)
find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2 NAMES_PER_DIR HINTS ${_nccl_hints}
             PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)

if(NCCL_INCLUDE_DIR AND EXISTS "${NCCL_INCLUDE_DIR}/nccl.h")
  file(STRINGS "${NCCL_INCLUDE_DIR}/nccl.h" _nccl_version_lines REGEX "^#define NCCL_(MAJOR|MINOR|PATCH)[ \t]")
  foreach(_part MAJOR MINOR PATCH)
    string(REGEX REPLACE ".*#define NCCL_${_part}[ \t]+([0-9]+).*" "\\1" _nccl_${_part} "${_nccl_version_lines}")
  endforeach()
  set(NCCL_VERSION "${_nccl_MAJOR}.${_nccl_MINOR}.${_nccl_PATCH}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NCCL REQUIRED_VARS NCCL_LIBRARY NCCL_INCLUDE_DIR VERSION_VAR NCCL_VERSION)

if(NCCL_FOUND AND NOT TARGET NCCL::NCCL)
  add_library(NCCL::NCCL UNKNOWN IMPORTED)
  set_target_properties(NCCL::NCCL PROPERTIES
    IMPORTED_LOCATION "${NCCL_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
endif()
mark_as_advanced(NCCL_INCLUDE_DIR NCCL_LIBRARY)
