# Runs `${MPGPU} ARGS...` (ARGS separated by `~`), feeding STDIN if given,
# and checks the exit status, the exact stdout (without its final newline)
# and stderr against a regex. Called by tests/calc/CMakeLists.txt.
string(REPLACE "~" ";" args "${ARGS}")
list(FILTER args EXCLUDE REGEX "^$")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(input_file "${WORK_DIR}/stdin.txt")
string(REPLACE "\\n" "\n" input "${STDIN}")
file(WRITE "${input_file}" "${input}")
execute_process(COMMAND ${MPGPU} ${args}
  INPUT_FILE "${input_file}"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
string(REGEX REPLACE "\n$" "" out "${out}")
set(problems "")
if(NOT rc STREQUAL EXPECT_RC)
  string(APPEND problems "exit status ${rc}, expected ${EXPECT_RC}\n")
endif()
if(NOT EXPECT_STDOUT STREQUAL "" AND NOT out STREQUAL EXPECT_STDOUT)
  string(APPEND problems "stdout \"${out}\", expected \"${EXPECT_STDOUT}\"\n")
endif()
if(NOT EXPECT_STDERR STREQUAL "" AND NOT err MATCHES "${EXPECT_STDERR}")
  string(APPEND problems "stderr does not match \"${EXPECT_STDERR}\"\n")
endif()
if(problems)
  list(JOIN args " " shown)
  message(FATAL_ERROR "mpgpu ${shown}:\n${problems}stdout:\n${out}\nstderr:\n${err}")
endif()
