# Checks that the library's folders include each other only downwards, as the README's "How the
# house is built" table says: every `#include "gyre/<folder>/…"` in include/gyre/<layer>,
# src/<layer> and geometries/ must name a folder the layer may use. Run by ctest
# (library_layering_is_one_way) as `cmake -DSOURCE_DIR=<repo> -P check_layering.cmake`.

cmake_minimum_required(VERSION 3.25)

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_layering.cmake: pass -DSOURCE_DIR=<the repository root>")
endif()

# Which Gyre folders each layer may include (itself always). `config.hpp` is not a folder and is
# allowed everywhere.
set(allowed_core "")
set(allowed_linalg core)
set(allowed_repr core linalg)
set(allowed_io core)
set(allowed_geometries core linalg geometry geometries)
set(allowed_geometry core linalg check geometries)
set(allowed_optim core linalg geometry geometries)
set(allowed_nn core linalg repr geometry geometries optim)
# check/ holds two kinds of header: the law checkers, which geometry/ uses and which therefore
# see only core/ and linalg/, and the model checkers below, which drive modules and so sit above nn/.
set(allowed_check core linalg)
set(model_checkers include/gyre/check/equivariance.hpp include/gyre/check/gradient_check.hpp)
set(allowed_model_checker core linalg repr geometry geometries optim nn)

set(violations "")
foreach(layer core linalg repr io geometry optim nn check geometries)
  if(layer STREQUAL "geometries")
    file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/geometries/*.hpp ${SOURCE_DIR}/geometries/*.cpp)
  else()
    file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/include/gyre/${layer}/*.hpp
         ${SOURCE_DIR}/src/${layer}/*.hpp ${SOURCE_DIR}/src/${layer}/*.cpp)
  endif()
  foreach(file IN LISTS files)
    set(allowed ${allowed_${layer}} ${layer})
    if(file IN_LIST model_checkers)
      set(allowed ${allowed_model_checker} check)
    endif()
    file(STRINGS ${SOURCE_DIR}/${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]gyre/[a-z_]+/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[^<\"]*[<\"]gyre/([a-z_]+)/.*$" "\\1" folder "${line}")
      if(NOT folder IN_LIST allowed)
        string(APPEND violations "  ${file}: ${line}   (${layer}/ may include: ${allowed})\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "An include goes up the layer table of README.md (How the house is built):\n${violations}")
endif()
message(STATUS "check_layering: every include goes down the layer table")
