# Writes ${PROJECT_BINARY_DIR}/include/gyre/config.hpp (from cmake/config.hpp.in), which records the
# instruction set of the build so that code compiled against Gyre with other flags fails to
# compile instead of crashing, and links ${PROJECT_BINARY_DIR}/include/gyre/geometries to the
# geometry headers, so that <gyre/geometries/…> resolves in the build tree as it does once installed.
include(CheckCXXSourceCompiles)

function(gyre_arch_defines macro result)
  unset(${result} CACHE)
  set(CMAKE_REQUIRED_FLAGS "${gyre_arch_flags_text}")
  check_cxx_source_compiles("#ifndef ${macro}\n#error ${macro} is not defined\n#endif\nint main() { return 0; }" ${result})
  if(${result})
    set(${result}_01 1 PARENT_SCOPE)
  else()
    set(${result}_01 0 PARENT_SCOPE)
  endif()
endfunction()

list(JOIN gyre_arch_flags " " gyre_arch_flags_text)
gyre_arch_defines(__AVX__ GYRE_ARCH_HAS_AVX)
gyre_arch_defines(__AVX512F__ GYRE_ARCH_HAS_AVX512F)
if(gyre_arch_flags_text STREQUAL "")
  set(GYRE_ARCH_FLAGS_TEXT "none, baseline x86-64")
else()
  set(GYRE_ARCH_FLAGS_TEXT "${gyre_arch_flags_text}")
endif()
if(GYRE_WITH_BATCHED_FAST_PATHS)
  set(GYRE_HAS_BATCHED_FAST_PATHS_01 1)
else()
  set(GYRE_HAS_BATCHED_FAST_PATHS_01 0)
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/config.hpp.in ${PROJECT_BINARY_DIR}/include/gyre/config.hpp @ONLY)
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/geometries ${PROJECT_BINARY_DIR}/include/gyre/geometries SYMBOLIC)
