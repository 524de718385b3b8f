# The layer check must catch what it is for: runs check_layers.cmake on the
# planted tree (planted/: an inner layer including the host API, a host
# source including the device API, an include of a missing mpgpu header, a
# folder without a rule, next to allowed includes that must pass) with the
# real rules, and on a planted rule that points outward; fails unless each
# run fails naming exactly the planted problems.
#   cmake -DCHECK=<check_layers.cmake> -DRULES=<rules.txt> -DPLANTED=<planted/> -P expect_violations.cmake
function(expect_failure rules want_count)
  execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${PLANTED} -DRULES=${rules} -P ${CHECK}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(APPEND out "${err}")
  if(rc EQUAL 0)
    message(FATAL_ERROR "the layer check passed on planted violations (${rules}):\n${out}")
  endif()
  foreach(want IN LISTS ARGN)
    string(FIND "${out}" "${want}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "the layer check did not report `${want}` (${rules}):\n${out}")
    endif()
  endforeach()
  string(REGEX MATCHALL "(^|\n)layers: " problems "${out}")
  list(LENGTH problems count)
  if(NOT want_count STREQUAL "any" AND NOT count EQUAL want_count)
    message(FATAL_ERROR "the layer check reported ${count} problems, want ${want_count} (${rules}):\n${out}")
  endif()
  message(STATUS "caught, as planted (${rules}):\n${out}")
endfunction()

expect_failure(${RULES} 4
  "include/mpgpu/limb/limb_includes_api.cuh: #include \"mpgpu/context.hpp\": limb (layer 0) -> api (layer 4)"
  "src/batch/host_includes_device_api.cpp: #include \"mpgpu/batch/env.cuh\": src_batch (layer 4) -> batch (layer 2)"
  "include/mpgpu/gfp/missing_include.hpp: #include \"mpgpu/gfp/no_such_header.hpp\": no such header"
  "include/mpgpu/unruled/ has no rule")
# (The planted folders that outward_rules.txt leaves out are reported too.)
expect_failure(${PLANTED}/outward_rules.txt any
  "rule `limb` (layer 0) may include `api` (layer 4), an outer layer")
