# ctest -P script: every test case of a doctest suite is registered as exactly one ctest entry.
# Inputs: SUITE (the executable's path), PREFIX (the entries' name prefix), BUILD_DIR, CTEST.
# doctest_discover_tests splits names on ';' (two broken entries for one case); this catches that
# and any other mismatch between the suite's own --count and what ctest would run.
execute_process(COMMAND "${SUITE}" --count --no-version --no-colors OUTPUT_VARIABLE count_output RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SUITE} --count failed (${rc}): ${count_output}")
endif()
string(REGEX MATCH "passing the current filters: ([0-9]+)" _ "${count_output}")
set(cases "${CMAKE_MATCH_1}")
if(cases STREQUAL "")
  message(FATAL_ERROR "could not read the test-case count from: ${count_output}")
endif()

execute_process(COMMAND "${CTEST}" --test-dir "${BUILD_DIR}" -N -R "^${PREFIX}"
                OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ctest -N failed (${rc}): ${listing}")
endif()
string(REGEX MATCHALL "\n *Test +#[0-9]+: " entries "\n${listing}")
list(LENGTH entries registered)

if(NOT registered EQUAL cases)
  message(FATAL_ERROR "${PREFIX}: the suite has ${cases} test cases but ctest registered ${registered} "
                      "entries. Is there a ';' in a TEST_CASE name?\n${listing}")
endif()
message(STATUS "${PREFIX}: ${cases} test cases, ${registered} ctest entries")
