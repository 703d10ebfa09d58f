# ctest -P script: executes a copy of a notebook top to bottom in gyre-kernel through Jupyter
# (`jupyter nbconvert --execute`: it saves the outputs, which Debian 12's `jupyter execute` does
# not). Fails on a compile error, an exception, a link error or a dead kernel; the executed copy,
# its outputs and plots stay in WORK_DIR for inspection.
get_filename_component(name ${NOTEBOOK} NAME)
file(MAKE_DIRECTORY ${WORK_DIR})
file(COPY ${NOTEBOOK} DESTINATION ${WORK_DIR})
set(ENV{JUPYTER_PATH} ${KERNELSPEC_DIR})
execute_process(COMMAND ${PYTHON} -m nbconvert --to notebook --execute --inplace
                        --ExecutePreprocessor.kernel_name=gyre-cpp17 --ExecutePreprocessor.timeout=600 ${name}
                WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${name} failed in gyre-kernel (executed copy: ${WORK_DIR}/${name})")
endif()
