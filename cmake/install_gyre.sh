#!/usr/bin/env bash
# Installs a built Gyre under its configured prefix (CMAKE_INSTALL_PREFIX, default /usr/local): the
# headers, libgyre.so, the `gyre` tool, gyre-kernel and its Jupyter kernelspec (gyre-cpp17,
# "C++17 (Gyre)"), then runs ldconfig so that a notebook's `#pragma cling load("libgyre")` finds
# the library by name. (The kernelspec names the installed paths, so the prefix is chosen when
# configuring, not here.)
#   bash cmake/install_gyre.sh [BUILD_DIR]     (default build/release)
set -euo pipefail
build_dir=${1:-build/release}
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build_dir/CMakeCache.txt")

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install_gyre.sh: run as root or install sudo" >&2; exit 1; }
  sudo_cmd=(sudo)
fi

"${sudo_cmd[@]}" cmake --install "$build_dir"
"${sudo_cmd[@]}" ldconfig
echo "install_gyre.sh: Gyre installed under $prefix"
if [[ -f "$prefix/share/jupyter/kernels/gyre-cpp17/kernel.json" ]]; then
  echo "install_gyre.sh: Jupyter kernel gyre-cpp17 (\"C++17 (Gyre)\") in $prefix/share/jupyter/kernels"
fi
