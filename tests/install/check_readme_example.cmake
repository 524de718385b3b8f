# cmake -P script behind install_readme_example: README.md must contain
# tests/install/consumer/main.cpp verbatim, so the README's example is the
# program the install test compiles and runs. Inputs: -DREADME= -DEXAMPLE=
file(READ "${README}" readme)
file(READ "${EXAMPLE}" example)
string(FIND "${readme}" "${example}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md does not contain ${EXAMPLE} verbatim; paste the file into "
                      "the README's C++ example (between ```cpp and ```)")
endif()
message(STATUS "README.md holds ${EXAMPLE} verbatim")
