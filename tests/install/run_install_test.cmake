# cmake -P script behind the install_consumer test (see CMakeLists.txt here).
# Inputs (-D): MPGPU_BUILD_DIR, MPGPU_SOURCE_DIR, WORK_DIR, CONSUMER_DIR,
# CONFIG, GENERATOR, MAKE_PROGRAM, CXX_COMPILER, GMP_INCLUDE_DIR, GMP_LIBRARY,
# MPGPU_SHARED (1 or 0), EXAMPLES_DIR (optional: examples/ to build and run),
# CGBN_CONSUMER_DIR (optional: a CGBN program to build against the installed
# drop-in header), CUDA_COMPILER (optional: nvcc, to compile that program as
# CUDA as well; empty in CPU-only builds), CUDA_HOST_COMPILER (optional:
# nvcc's -ccbin, the build's CMAKE_CUDA_HOST_COMPILER).
cmake_minimum_required(VERSION 3.25)

foreach(v MPGPU_BUILD_DIR WORK_DIR CONSUMER_DIR CXX_COMPILER)
  if(NOT ${v})
    message(FATAL_ERROR "run_install_test.cmake: -D${v}=... is required")
  endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
file(READ "${CONSUMER_DIR}/expected.txt" expected)
unset(ENV{DESTDIR})  # the install must land in ${prefix} itself

# run(<step> COMMAND...): runs a command, fails the test with its output if it fails.
function(run step)
  execute_process(COMMAND ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: ${step} failed (${rc})\n"
                        "command: ${ARGN}\n--- stdout\n${out}\n--- stderr\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

function(expect_output step actual)
  string(REPLACE "\r\n" "\n" actual "${actual}")
  if(NOT actual STREQUAL expected)
    message(FATAL_ERROR "install test: ${step} printed\n${actual}\nexpected\n${expected}")
  endif()
  message(STATUS "${step}: output as expected")
endfunction()

# ---- 1. install -----------------------------------------------------------------------
set(config_args "")
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
run("cmake --install" "${CMAKE_COMMAND}" --install "${MPGPU_BUILD_DIR}" --prefix "${prefix}" ${config_args})
message(STATUS "installed into ${prefix}")

file(GLOB_RECURSE config_file "${prefix}/*mpgpuConfig.cmake")
file(GLOB_RECURSE pc_file "${prefix}/*mpgpu.pc")
list(FILTER config_file INCLUDE REGEX "/mpgpuConfig\\.cmake$")
list(FILTER pc_file INCLUDE REGEX "/pkgconfig/mpgpu\\.pc$")
foreach(f include/mpgpu/mpgpu.hpp include/mpgpu/integer.hpp include/mpgpu/limb/config.cuh bin/mpgpu)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "install test: ${f} was not installed")
  endif()
endforeach()
# Every file of the source tree's include/mpgpu is installed: the install
# rule names the kinds of file to take (cmake/install.cmake), and a header
# that includes a kind it leaves out (the CGBN header's env_*.inc did) would
# break only once installed.
if(MPGPU_SOURCE_DIR)
  file(GLOB_RECURSE source_headers RELATIVE "${MPGPU_SOURCE_DIR}/include" "${MPGPU_SOURCE_DIR}/include/mpgpu/*")
  set(missing "")
  foreach(f ${source_headers})
    if(NOT EXISTS "${prefix}/include/${f}")
      string(APPEND missing "\n  include/${f}")
    endif()
  endforeach()
  if(missing)
    message(FATAL_ERROR "install test: files of include/ were not installed "
                        "(cmake/install.cmake's patterns):${missing}")
  endif()
  list(LENGTH source_headers header_count)
  message(STATUS "all ${header_count} files of include/mpgpu installed")
endif()
if(NOT config_file OR NOT pc_file)
  message(FATAL_ERROR "install test: mpgpuConfig.cmake or mpgpu.pc was not installed")
endif()
get_filename_component(config_dir "${config_file}" DIRECTORY)
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
get_filename_component(libdir "${pc_dir}" DIRECTORY)
foreach(f mpgpuConfigVersion.cmake mpgpuTargets.cmake FindGMP.cmake)
  if(NOT EXISTS "${config_dir}/${f}")
    message(FATAL_ERROR "install test: ${config_dir}/${f} was not installed")
  endif()
endforeach()

# The shared library keeps the CUDA runtime inside: its users must not need
# the CUDA toolkit, so the exported targets must not name CUDA:: at all.
if(MPGPU_SHARED)
  file(GLOB targets_files "${config_dir}/mpgpuTargets*.cmake")
  foreach(f ${targets_files})
    file(READ "${f}" text)
    if(text MATCHES "CUDA::")
      message(FATAL_ERROR "install test: ${f} names a CUDA:: target; consumers of the "
                          "shared library would need the CUDA toolkit")
    endif()
  endforeach()
  find_program(READELF readelf)
  file(GLOB shared_libs "${libdir}/libmpgpu.so*")
  if(READELF AND shared_libs)
    list(GET shared_libs 0 lib)
    execute_process(COMMAND "${READELF}" -d "${lib}" OUTPUT_VARIABLE dyn)
    if(dyn MATCHES "NEEDED[^\n]*libcudart")
      message(FATAL_ERROR "install test: ${lib} needs libcudart.so; cudart must be linked statically")
    endif()
  endif()
endif()

# The installed CLI runs from the prefix (rpath $ORIGIN/../lib), no LD_LIBRARY_PATH.
run("installed mpgpu info" "${prefix}/bin/mpgpu" info)

# ---- 2. find_package(mpgpu) --------------------------------------------------------------
set(gen_args "")
if(GENERATOR)
  list(APPEND gen_args -G "${GENERATOR}")
endif()
if(MAKE_PROGRAM)
  list(APPEND gen_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
set(gmp_args "")
if(GMP_INCLUDE_DIR)
  list(APPEND gmp_args "-DGMP_INCLUDE_DIR=${GMP_INCLUDE_DIR}")
endif()
if(GMP_LIBRARY)
  list(APPEND gmp_args "-DGMP_LIBRARY=${GMP_LIBRARY}")
endif()
set(consumer_build "${WORK_DIR}/consumer-build")
run("configure consumer" "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${consumer_build}"
    ${gen_args} ${gmp_args}
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
    "-DCMAKE_BUILD_TYPE=Release"
    "-DCMAKE_PREFIX_PATH=${prefix}"
    "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF")
file(STRINGS "${consumer_build}/CMakeCache.txt" mpgpu_dir_line REGEX "^mpgpu_DIR:")
string(REGEX REPLACE "^[^=]*=" "" found_dir "${mpgpu_dir_line}")
file(REAL_PATH "${found_dir}" found_dir)
file(REAL_PATH "${config_dir}" expected_dir)
if(NOT found_dir STREQUAL expected_dir)
  message(FATAL_ERROR "install test: the consumer found mpgpu in ${found_dir}, not in ${expected_dir}")
endif()
run("build consumer" "${CMAKE_COMMAND}" --build "${consumer_build}" --config Release)
set(consumer_exe "${consumer_build}/consumer")
if(NOT EXISTS "${consumer_exe}")
  set(consumer_exe "${consumer_build}/Release/consumer")  # multi-config generators
endif()
run("run consumer (find_package)" "${consumer_exe}")
expect_output("consumer (find_package)" "${run_output}")

# ---- 2b. examples/ against the same install -------------------------------------------
# pi, e and the Lucas-Lehmer test as a user would build them, run small: pi and
# e to 1000 digits against the published digits (a prefix here) and against
# the installed `mpgpu pi` / `mpgpu e`, which compute them their own way.
if(EXAMPLES_DIR)
  set(examples_build "${WORK_DIR}/examples-build")
  run("configure examples" "${CMAKE_COMMAND}" -S "${EXAMPLES_DIR}" -B "${examples_build}"
      ${gen_args} ${gmp_args}
      "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
      "-DCMAKE_BUILD_TYPE=Release"
      "-DCMAKE_PREFIX_PATH=${prefix}"
      "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF")
  run("build examples" "${CMAKE_COMMAND}" --build "${examples_build}" --config Release)
  function(example_path name out)
    set(exe "${examples_build}/${name}")
    if(NOT EXISTS "${exe}")
      set(exe "${examples_build}/Release/${name}")
    endif()
    set(${out} "${exe}" PARENT_SCOPE)
  endfunction()
  set(pi_prefix "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196")
  set(e_prefix "2.71828182845904523536028747135266249775724709369995957496696762772407663035354759457138217852516642742746639193200305992181741359662904357290033429526059563073813232862794349076323382988075319525101901")
  foreach(constant pi e)
    example_path(${constant} exe)
    run("example ${constant} 1000" "${exe}" 1000)
    string(STRIP "${run_output}" example_text)
    string(LENGTH "${example_text}" length)
    string(SUBSTRING "${example_text}" 0 202 head)
    if(NOT length EQUAL 1002 OR NOT head STREQUAL "${${constant}_prefix}")
      message(FATAL_ERROR "install test: example ${constant} 1000 printed ${length} characters, "
                          "starting ${head}\nexpected 1002 starting ${${constant}_prefix}")
    endif()
    run("installed mpgpu ${constant} 1000" "${prefix}/bin/mpgpu" --device cpu ${constant} 1000)
    string(STRIP "${run_output}" tool_text)
    if(NOT tool_text STREQUAL example_text)
      message(FATAL_ERROR "install test: example ${constant} and `mpgpu ${constant} 1000` differ:\n"
                          "${example_text}\n${tool_text}")
    endif()
    message(STATUS "example ${constant} 1000: the published digits, as mpgpu ${constant}")
  endforeach()
  example_path(lucas_lehmer exe)
  foreach(case "521;prime" "523;composite" "607;prime" "3;prime" "11;composite")
    list(GET case 0 p)
    list(GET case 1 want)
    run("example lucas_lehmer ${p}" "${exe}" ${p})
    string(STRIP "${run_output}" got)
    if(NOT got STREQUAL want)
      message(FATAL_ERROR "install test: lucas_lehmer ${p} printed \"${got}\", expected \"${want}\"")
    endif()
  endforeach()
  message(STATUS "example lucas_lehmer: 2^521-1, 2^607-1 prime, 2^523-1 composite")
endif()

# ---- 2c. the CGBN drop-in header from the prefix ------------------------------------------
# A CGBN program changes only its include path (docs/cgbn.md):
#   -I <prefix>/include/mpgpu/compat -I <prefix>/include, C++17.
# The header is header-only and has a host path (a thread an instance), so
# the program is compiled by the C++ compiler and run, with no CUDA toolkit
# and no GPU; with nvcc (CUDA builds) it is also compiled as CUDA, as CGBN
# programs are, for the device's includes (compiled only: running it would
# need a GPU).
if(CGBN_CONSUMER_DIR)
  set(cgbn_includes "-I${prefix}/include/mpgpu/compat" "-I${prefix}/include")
  set(cgbn_exe "${WORK_DIR}/cgbn-consumer")
  run("compile the CGBN program (C++)" "${CXX_COMPILER}" -std=c++17 -O1 ${cgbn_includes}
      "${CGBN_CONSUMER_DIR}/main.cpp" -o "${cgbn_exe}")
  run("run the CGBN program" "${cgbn_exe}")
  file(READ "${CGBN_CONSUMER_DIR}/expected.txt" cgbn_expected)
  string(REPLACE "\r\n" "\n" cgbn_output "${run_output}")
  if(NOT cgbn_output STREQUAL cgbn_expected)
    message(FATAL_ERROR "install test: the CGBN program printed\n${cgbn_output}\nexpected\n${cgbn_expected}")
  endif()
  message(STATUS "CGBN program from the installed cgbn/cgbn.h (C++): output as expected")
  if(CUDA_COMPILER)
    set(ccbin "")
    if(CUDA_HOST_COMPILER)
      set(ccbin -ccbin "${CUDA_HOST_COMPILER}")
    endif()
    # sm_90 as docs/cgbn.md says: the device API needs sm_80 or later.
    run("compile the CGBN program (nvcc)" "${CUDA_COMPILER}" ${ccbin} -std=c++17 -arch=sm_90 --expt-relaxed-constexpr
        -x cu -c ${cgbn_includes} "${CGBN_CONSUMER_DIR}/main.cpp" -o "${WORK_DIR}/cgbn-consumer-cuda.o")
    message(STATUS "CGBN program from the installed cgbn/cgbn.h (nvcc): compiled")
  endif()
endif()

# ---- 3. pkg-config ------------------------------------------------------------------------
find_program(PKG_CONFIG_EXECUTABLE NAMES pkg-config pkgconf)
if(NOT PKG_CONFIG_EXECUTABLE)
  message(STATUS "pkg-config not found: skipping the mpgpu.pc check")
  return()
endif()
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
run("pkg-config --modversion" "${PKG_CONFIG_EXECUTABLE}" --modversion mpgpu)
string(STRIP "${run_output}" pc_version)
file(READ "${config_dir}/mpgpuConfigVersion.cmake" version_text)
string(REGEX MATCH "PACKAGE_VERSION \"([^\"]*)\"" _ "${version_text}")
if(NOT pc_version STREQUAL CMAKE_MATCH_1)
  message(FATAL_ERROR "install test: mpgpu.pc says version ${pc_version}, the CMake package ${CMAKE_MATCH_1}")
endif()
run("pkg-config --cflags --libs" "${PKG_CONFIG_EXECUTABLE}" --cflags --libs mpgpu)
string(STRIP "${run_output}" pc_flags)
message(STATUS "pkg-config --cflags --libs mpgpu: ${pc_flags}")
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
set(pc_exe "${WORK_DIR}/consumer-pkgconfig")
run("compile with pkg-config flags" "${CXX_COMPILER}" -std=c++20 -O1
    "${CONSUMER_DIR}/main.cpp" ${pc_flags} -o "${pc_exe}")
set(ENV{LD_LIBRARY_PATH} "${libdir}:$ENV{LD_LIBRARY_PATH}")
run("run consumer (pkg-config)" "${pc_exe}")
expect_output("consumer (pkg-config)" "${run_output}")
