# gyre_missing_dependency(MESSAGE): an optional dependency is absent and the parts that need it
# (and their tests) are left out. On a developer's machine that is a warning; under CI (the CI
# environment variable set) or with GYRE_REQUIRE_ALL_DEPENDENCIES it fails the configure, so that
# a broken install step cannot pass CI by silently registering fewer tests.
if(DEFINED ENV{CI})
  set(gyre_require_all_default ON)
else()
  set(gyre_require_all_default OFF)
endif()
option(GYRE_REQUIRE_ALL_DEPENDENCIES "Fail the configure when an optional dependency is missing (on under CI)"
       ${gyre_require_all_default})

function(gyre_missing_dependency message)
  if(GYRE_REQUIRE_ALL_DEPENDENCIES)
    message(FATAL_ERROR "gyre: ${message} (GYRE_REQUIRE_ALL_DEPENDENCIES is on; run cmake/install_deps.sh)")
  else()
    message(WARNING "gyre: ${message}")
  endif()
endfunction()
