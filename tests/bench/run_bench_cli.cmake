# Runs `${MPGPU} ARGS...` (ARGS separated by `~`) and checks the exit status,
# stdout against each `~`-separated regex of EXPECT_STDOUT, and stderr against
# EXPECT_STDERR. Called by tests/bench/CMakeLists.txt.
string(REPLACE "~" ";" args "${ARGS}")
list(FILTER args EXCLUDE REGEX "^$")
execute_process(COMMAND ${MPGPU} ${args}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
set(problems "")
if(NOT rc STREQUAL EXPECT_RC)
  string(APPEND problems "exit status ${rc}, expected ${EXPECT_RC}\n")
endif()
string(REPLACE "~" ";" patterns "${EXPECT_STDOUT}")
foreach(p IN LISTS patterns)
  if(NOT p STREQUAL "" AND NOT out MATCHES "${p}")
    string(APPEND problems "stdout does not match \"${p}\"\n")
  endif()
endforeach()
if(NOT EXPECT_STDERR STREQUAL "" AND NOT err MATCHES "${EXPECT_STDERR}")
  string(APPEND problems "stderr does not match \"${EXPECT_STDERR}\"\n")
endif()
if(problems)
  list(JOIN args " " shown)
  message(FATAL_ERROR "mpgpu ${shown}:\n${problems}stdout:\n${out}\nstderr:\n${err}")
endif()
