# scripts/sanitize-gpu-tests --list over a made-up build tree (two empty
# programs: one in its table of expected seconds, one not), so that a broken
# table (a lost quote once made every run stop at its first line) fails here,
# on the CPU, instead of costing a device call.
set(tree ${WORK_DIR}/sanitize-list-build)
file(REMOVE_RECURSE ${tree})
file(MAKE_DIRECTORY ${tree}/tests/batch)
foreach(program batch_ops_gpu_test unlisted_gpu_test)
  file(WRITE ${tree}/tests/batch/${program} "")
  file(CHMOD ${tree}/tests/batch/${program} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
endforeach()
execute_process(COMMAND ${SCRIPT} --build ${tree} --tools memcheck,racecheck --list
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sanitize-gpu-tests --list failed (${rc}):\n${out}\n${err}")
endif()
# batch_ops: its racecheck shards and expected seconds from the table; the
# unlisted program: the defaults.
foreach(want "racecheck  batch_ops_gpu_test shard 23/24" "memcheck   batch_ops_gpu_test" "racecheck  unlisted_gpu_test")
  string(FIND "${out}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "sanitize-gpu-tests --list: no line with '${want}' in:\n${out}")
  endif()
endforeach()
