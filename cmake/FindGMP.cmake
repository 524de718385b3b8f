# Finds GMP. Hints: GMP_ROOT, or GMP_INCLUDE_DIR / GMP_LIBRARY directly.
# Defines the imported target GMP::GMP.
find_path(GMP_INCLUDE_DIR gmp.h HINTS ${GMP_ROOT}/include)
find_library(GMP_LIBRARY NAMES gmp libgmp.so.10 HINTS ${GMP_ROOT}/lib)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(GMP REQUIRED_VARS GMP_LIBRARY GMP_INCLUDE_DIR)
if(GMP_FOUND AND NOT TARGET GMP::GMP)
  add_library(GMP::GMP UNKNOWN IMPORTED)
  set_target_properties(GMP::GMP PROPERTIES
    IMPORTED_LOCATION "${GMP_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${GMP_INCLUDE_DIR}")
endif()
mark_as_advanced(GMP_INCLUDE_DIR GMP_LIBRARY)
