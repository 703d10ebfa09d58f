# ctest driver: install the just-built Gyre into a scratch prefix, then configure, build and run
# tests/install_consumer against it with find_package(gyre CONFIG REQUIRED).
# Inputs: -DGYRE_BINARY_DIR=… -DCONSUMER_SOURCE_DIR=… -DSCRATCH_DIR=… -DGENERATOR=…
file(REMOVE_RECURSE "${SCRATCH_DIR}")
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()
run(${CMAKE_COMMAND} --install "${GYRE_BINARY_DIR}" --prefix "${SCRATCH_DIR}/prefix")
run(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE_DIR}" -B "${SCRATCH_DIR}/build" -G "${GENERATOR}"
    -DCMAKE_PREFIX_PATH=${SCRATCH_DIR}/prefix -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build "${SCRATCH_DIR}/build")
run("${SCRATCH_DIR}/build/consumer")
