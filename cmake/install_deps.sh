#!/usr/bin/env bash
# Installs the Debian 12 packages Gyre builds, tests and benchmarks with. Idempotent; run as root
# or with sudo available. Every dependency is a Debian package: nothing is downloaded by hand.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libeigen3-dev                       # Eigen 3.4 (with unsupported/MatrixFunctions for tests)
  xtensor-dev xtl-dev libxsimd-dev    # batched arrays
  libboost-math-dev                   # special functions and constants
  libfftw3-dev                        # Fourier transforms on finite groups (double and float)
  libdnnl-dev                         # oneDNN: float convolutions (the library under PyTorch's CPU conv2d)
  ocl-icd-opencl-dev                  # OpenCL headers: Debian's dnnl-config.cmake requires them
  doctest-dev                         # unit tests
  nlohmann-json3-dev                  # the gyre command's JSON-lines protocol and reports
  libbenchmark-dev                    # Google Benchmark (benchmarks, never part of ctest)
  zlib1g-dev                          # reads the gzip-compressed IDX files
  dataset-fashion-mnist               # real images for `gyre demo` and the training tests (IDX files)
  xeus-dev                            # gyre-kernel: the Jupyter kernel protocol (ZeroMQ server included)
  libclang-cpp14-dev libclang-14-dev llvm-14-dev  # gyre-kernel: clang 14's incremental Interpreter
  jupyter-client python3-nbclient jupyter-nbconvert python3-ipykernel  # running notebooks headlessly
  clang-14 libomp-14-dev              # the ThreadSanitizer build: clang with LLVM's OpenMP and its Archer tool
  clang-format-14                     # the formatting check (tests/headers: clang_format_is_clean)
)

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install_deps.sh: run as root or install sudo" >&2; exit 1; }
  sudo_cmd=(sudo)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install_deps.sh: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install_deps.sh: all ${#packages[@]} packages already installed"
fi
