# ctest -P script: runs COMMAND (words separated by '|') and requires exactly the exit code EXIT_CODE and, if
# given, STDERR_CONTAINS in its standard error. ctest's WILL_FAIL accepts any non-zero exit, so a
# crash (134) or an exception (1) would have passed where a usage error (2) was meant.
string(REPLACE "|" ";" COMMAND "${COMMAND}")
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code STREQUAL EXIT_CODE)
  message(FATAL_ERROR "expected exit code ${EXIT_CODE}, got ${code}\nstdout: ${out}\nstderr: ${err}")
endif()
if(DEFINED STDERR_CONTAINS)
  string(FIND "${err}" "${STDERR_CONTAINS}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "stderr does not contain \"${STDERR_CONTAINS}\":\n${err}")
  endif()
endif()
