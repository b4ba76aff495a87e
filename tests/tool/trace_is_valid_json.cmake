# Runs `fibercl exec --seed S --trace FILE` on examples/inter_group and checks that the
# trace is valid JSON with trace events (CMake's own JSON parser fails on anything else).
#   cmake -DTOOL=... -DAPP=... -DOUT=... -P trace_is_valid_json.cmake
file(REMOVE ${OUT})
execute_process(COMMAND ${TOOL} exec --seed 3 --trace ${OUT} -- ${APP} race 4
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "inter_group failed (${rc}): ${out} ${err}")
endif()
file(READ ${OUT} trace)
string(JSON kind ERROR_VARIABLE jsonError TYPE "${trace}")
if(jsonError)
  message(FATAL_ERROR "trace is not valid JSON: ${jsonError}")
endif()
if(kind STREQUAL "ARRAY")
  string(JSON events LENGTH "${trace}")
else()
  string(JSON events LENGTH "${trace}" traceEvents)
endif()
if(events LESS 4)
  message(FATAL_ERROR "trace has only ${events} events")
endif()
message(STATUS "trace: valid JSON ${kind} with ${events} events")
