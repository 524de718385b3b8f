# cmake -DIN=<device header> -DOUT=<copy> -P cuda_host_source.cmake
#
# Copies a device-code header for a host-compiler build against
# tests/ntt/cuda_host_shim: the launches `kernel<<<cfg>>>(args)`, which no
# C++ compiler parses, become `kernel * ::cuda_host_shim::launch_config(cfg)(args)`
# (the shim's operator* runs the kernel on the host). Nothing else changes.
# Fails when the header has no launch left to rewrite or a `<<<` the pattern
# misses, so a change to the header's launches shows up here, not as a
# confusing compile error.
if(NOT IN OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DIN=<header> -DOUT=<copy> -P cuda_host_source.cmake")
endif()
file(READ "${IN}" text)
string(REGEX MATCHALL "<<<[^<>]*>>>" launches "${text}")
list(LENGTH launches count)
if(count EQUAL 0)
  message(FATAL_ERROR "${IN}: no <<<...>>> launch to rewrite")
endif()
string(REGEX REPLACE "<<<([^<>]*)>>>" " * ::cuda_host_shim::launch_config(\\1)" text "${text}")
string(FIND "${text}" "<<<" left)
if(NOT left EQUAL -1)
  message(FATAL_ERROR "${IN}: a <<< launch the rewrite does not handle")
endif()
file(WRITE "${OUT}.tmp" "// Generated from ${IN} by tests/ntt/cuda_host_source.cmake (${count} launches rewritten).\n${text}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${OUT}.tmp" "${OUT}" COMMAND_ERROR_IS_FATAL ANY)
file(REMOVE "${OUT}.tmp")
