# `mpgpu pi 50 --output FILE` writes exactly what `mpgpu pi 50` prints, and
# prints nothing itself; an unwritable FILE is exit status 3 before any work.
# Called by tests/calc/CMakeLists.txt with -DMPGPU and -DWORK_DIR.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(expected "3.14159265358979323846264338327950288419716939937510\n")
execute_process(COMMAND ${MPGPU} --device cpu pi 50 --output "${WORK_DIR}/pi.txt"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out STREQUAL "")
  message(FATAL_ERROR "mpgpu pi 50 --output: exit status ${rc}, stdout \"${out}\", stderr \"${err}\"")
endif()
file(READ "${WORK_DIR}/pi.txt" written)
if(NOT written STREQUAL expected)
  message(FATAL_ERROR "mpgpu pi 50 --output wrote \"${written}\", expected \"${expected}\"")
endif()
execute_process(COMMAND ${MPGPU} --device cpu pi 50 --output "${WORK_DIR}/no/such/dir/pi.txt"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 3 OR NOT err MATCHES "cannot write")
  message(FATAL_ERROR "mpgpu pi --output into a missing directory: exit status ${rc}, stderr \"${err}\"")
endif()
