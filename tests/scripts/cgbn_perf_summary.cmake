# scripts/cgbn-perf --run over a made-up build folder: two stand-in
# xmp_tester programs that write CGBN's report format
# (gpu_throughput_report.csv: ",128,256" then "\"test\",rate,rate"), so
# that the side-by-side table (rows, sizes, ratios) is checked on the CPU
# instead of costing a device call.
set(tree ${WORK_DIR}/cgbn-perf-build)
file(REMOVE_RECURSE ${tree})
foreach(pair "cgbn;1000;300" "mpgpu;1500;90")
  list(GET pair 0 name)
  list(GET pair 1 add)
  list(GET pair 2 mul)
  file(MAKE_DIRECTORY ${tree}/${name})
  file(WRITE ${tree}/${name}/xmp_tester
       "#!/bin/sh\nprintf ',128,256\\n\"add\",${add},2000\\n\"mul\",${mul},100\\n' > gpu_throughput_report.csv\n")
  file(CHMOD ${tree}/${name}/xmp_tester PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
endforeach()
execute_process(COMMAND ${SCRIPT} --run --build-dir ${tree} -- add mul 128 256
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cgbn-perf --run failed (${rc}):\n${out}\n${err}")
endif()
foreach(want "| add | 128 | 1000 | 1500 | 1.50x |" "| add | 256 | 2000 | 2000 | 1.00x |"
             "| mul | 128 | 300 | 90 | 0.30x |" "| mul | 256 | 100 | 100 | 1.00x |")
  string(FIND "${out}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "cgbn-perf --run: no line '${want}' in:\n${out}")
  endif()
endforeach()
