# Fails when a tracked C++ file differs from what clang-format 14 makes of it under .clang-format.
# Run by ctest (clang_format_is_clean) as
#   cmake -DSOURCE_DIR=<repo> -DCLANG_FORMAT=<clang-format-14> -P check_formatting.cmake
# Fix a failure with: git ls-files '*.cpp' '*.hpp' | xargs clang-format-14 -i
cmake_minimum_required(VERSION 3.25)

if(NOT SOURCE_DIR OR NOT CLANG_FORMAT)
  message(FATAL_ERROR "check_formatting.cmake: pass -DSOURCE_DIR=<repo> -DCLANG_FORMAT=<clang-format-14>")
endif()

file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/include/*.hpp ${SOURCE_DIR}/geometries/*.hpp
     ${SOURCE_DIR}/src/*.hpp ${SOURCE_DIR}/src/*.cpp ${SOURCE_DIR}/tests/*.hpp ${SOURCE_DIR}/tests/*.cpp)
list(LENGTH files count)
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${files}
                WORKING_DIRECTORY ${SOURCE_DIR}
                RESULT_VARIABLE status
                ERROR_VARIABLE diagnostics)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "clang-format would change these lines (fix: clang-format-14 -i <file>):\n${diagnostics}")
endif()
message(STATUS "check_formatting: ${count} files match .clang-format")
