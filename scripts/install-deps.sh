#!/usr/bin/env bash
# Installs the Debian 12 packages FiberCL needs to build, test and benchmark.
# Idempotent: packages already present are skipped by apt-get.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache git pkg-config
  llvm-19-dev libclang-19-dev clang-19 libclang-cpp19-dev
  libboost-context-dev libffi-dev libsleef-dev zlib1g-dev libzstd-dev libedit-dev libxml2-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers opencl-c-headers clinfo
  pocl-opencl-icd
  ffmpeg  # its OpenCL filters against their CPU twins (conformance/ffmpeg)
  llvm-spirv-15  # reads SPIR-V for clCreateProgramWithIL (no translator for LLVM 19)
  spirv-tools    # spirv-as, for the SPIR-V test modules
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
