# ctest -P script: the fast gate of a notebook. gyre-notebook-program turns it into one C++
# program (the kernel's own splitting), which must compile and link at -O2 against libgyre.
get_filename_component(name ${NOTEBOOK} NAME_WE)
file(MAKE_DIRECTORY ${WORK_DIR})
set(program ${WORK_DIR}/${name}.cpp)
execute_process(COMMAND ${NOTEBOOK_PROGRAM} ${NOTEBOOK} ${program}
                OUTPUT_VARIABLE pragma_flags RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "gyre-notebook-program failed on ${NOTEBOOK}")
endif()
string(REPLACE "\n" ";" pragma_flags "${pragma_flags}")
set(command ${COMPILER} ${FLAGS})
foreach(dir IN LISTS INCLUDE_DIRS)
  list(APPEND command -I${dir})
endforeach()
list(APPEND command ${program} -o ${WORK_DIR}/${name} -L${LIBRARY_DIR} ${pragma_flags}
        -Wl,-rpath,${LIBRARY_DIR})
execute_process(COMMAND ${command} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${name}: the notebook does not compile as one program:\n  ${command}")
endif()
message(STATUS "${name}: compiled and linked as ${WORK_DIR}/${name}")
